// Issue 48: settings in a file. The shop's scripts read `.env` in the shop's folder or ENV_FILE with
// Node's parser; the process environment wins over the file; `KEY=` in the file is "not set".
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadEnvFile } from '../../scripts/env-file.mjs'

const folder = () => mkdtempSync(path.join(tmpdir(), 'env-file-'))

describe('the settings file', () => {
  it('reads .env in the shop folder; the environment wins, blanks and comments are skipped', () => {
    const dir = folder()
    writeFileSync(
      path.join(dir, '.env'),
      '# a comment\nPORT=4000\nPUBLIC_URL=https://shop.example.ru\nJWT_SECRET=\nMAIL_FROM="Shop <shop@example.ru>"\n',
    )
    const env: Record<string, string | undefined> = { PORT: '5000' }
    const read = loadEnvFile(env, dir)
    expect(read?.file).toBe(path.join(dir, '.env'))
    expect(read?.set.sort()).toEqual(['MAIL_FROM', 'PUBLIC_URL'])
    expect(env).toEqual({
      PORT: '5000',
      PUBLIC_URL: 'https://shop.example.ru',
      MAIL_FROM: 'Shop <shop@example.ru>',
    })
  })

  it('ENV_FILE names a file elsewhere, instead of the folder’s .env', () => {
    const dir = folder()
    writeFileSync(path.join(dir, '.env'), 'PORT=1\n')
    const outside = path.join(folder(), 'shop.env')
    writeFileSync(outside, 'PORT=2\n')
    const env: Record<string, string | undefined> = { ENV_FILE: outside }
    expect(loadEnvFile(env, dir)?.file).toBe(outside)
    expect(env.PORT).toBe('2')
  })

  it('no .env and no ENV_FILE: nothing read; an ENV_FILE that cannot be read stops with its name', () => {
    const env: Record<string, string | undefined> = {}
    expect(loadEnvFile(env, folder())).toBeNull()
    expect(env).toEqual({})
    const missing = path.join(folder(), 'nope.env')
    expect(() => loadEnvFile({ ENV_FILE: missing }, folder())).toThrow(
      `ENV_FILE: cannot read ${missing} (ENOENT)`,
    )
  })
})
