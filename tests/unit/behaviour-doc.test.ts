// Issue 35: every `§N` in the code, the tests and the contract resolves to a section of
// docs/behaviour.md (a `§` after an RFC's name is that RFC's section, not ours).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const DIRS = ['app', 'api/src', 'server', 'shared', 'scripts', 'tests', 'e2e']
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name)
    return statSync(p).isDirectory() ? files(p) : /\.(ts|tsx|mjs)$/.test(name) ? [p] : []
  })

const sections = new Set(
  [...readFileSync('docs/behaviour.md', 'utf8').matchAll(/^## §(\d+) /gm)].map((m) => Number(m[1])),
)

describe('docs/behaviour.md', () => {
  it('has its fifteen sections, in order (§10–§15: back-office, desk, refunds, risk, receipts, kinds)', () => {
    expect([...sections]).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15])
  })

  it('§10–§15 cite code paths that exist and decisions that exist', () => {
    const text = readFileSync('docs/behaviour.md', 'utf8')
    const added = text.slice(text.indexOf('## §10 '))
    const paths = [...added.matchAll(/`((?:api\/src|app|server|shared)\/[\w./-]+)`/g)].map((m) => m[1]!)
    expect(paths.length).toBeGreaterThan(10)
    expect(paths.filter((p) => !existsSync(p))).toEqual([])
    const decisions = new Set(readdirSync('docs/decisions').map((f) => f.slice(0, 3)))
    const cited = [...added.matchAll(/decisions? (\d{3}(?:, \d{3})*)/g)].flatMap((m) => m[1]!.split(', '))
    expect(cited.length).toBeGreaterThan(10)
    expect(cited.filter((n) => !decisions.has(n))).toEqual([])
  })

  it('has a section for every § reference of the code, the tests and the contract', () => {
    const unresolved: string[] = []
    let count = 0
    for (const file of [...DIRS.flatMap(files), 'openapi/schema.json']) {
      for (const m of readFileSync(file, 'utf8').matchAll(/(RFC ?\d+ )?§(\d+)/g)) {
        if (m[1]) continue
        count++
        if (!sections.has(Number(m[2]))) unresolved.push(`${file}: §${m[2]}`)
      }
    }
    expect(count).toBeGreaterThan(100)
    expect(unresolved).toEqual([])
  })
})
