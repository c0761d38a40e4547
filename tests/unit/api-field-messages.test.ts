// Issue 46: the API's validation messages (zod schemas of the routes and services) live in
// locales/ru/api.json under `field_*` keys and are read with message() of api/src/lib/errors.ts,
// whose key type is the file's keys, so a key the code names but the file lacks fails typecheck.
// This covers the other direction: a `field_*` message no code names any more is dead text.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import apiMessages from '../../locales/ru/api.json' with { type: 'json' }
import { message } from '../../api/src/lib/errors'

const root = fileURLToPath(new URL('../..', import.meta.url))

function sourceFiles(p: string): string[] {
  if (statSync(p).isDirectory()) return readdirSync(p).flatMap((f) => sourceFiles(path.join(p, f)))
  return /\.tsx?$/.test(p) && !/\.test\.tsx?$/.test(p) ? [p] : []
}

describe('validation messages in locales/ru/api.json', () => {
  const source = sourceFiles(path.join(root, 'api/src'))
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n')
  const fieldKeys = Object.keys(apiMessages).filter((k) => k.startsWith('field_'))

  it('every field_* message is read by the API code', () => {
    expect(fieldKeys.length).toBeGreaterThan(50)
    expect(fieldKeys.filter((k) => !source.includes(`message('${k}'`))).toEqual([])
  })

  it('fills the placeholders the wire text had', () => {
    expect(message('field_max_chars', { max: 254 })).toBe('не длиннее 254 символов')
    expect(message('field_lines_max', { max: 50 })).toBe('не больше 50 позиций')
    expect(message('field_max', { max: '1 000 000' })).toBe('не больше 1 000 000')
  })
})
