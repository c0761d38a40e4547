// npm run test:mutation:score — per-module figures from the last `npm run test:mutation`
// (reports/mutation/mutation.json): the mutation score with every test, and the score the tests
// outside the `money-*` files reach on their own. The mutation run's vitest config runs those
// other files first and Stryker stops at a mutant's first failing test, so a mutant whose first
// killer is in a `money-*` file survived all the others.
import { readFileSync } from 'node:fs'

interface Mutant {
  id: string
  status: string
  killedBy?: string[]
  location: { start: { line: number } }
  mutatorName: string
  replacement?: string
}
interface Report {
  files: Record<string, { mutants: Mutant[] }>
  testFiles?: Record<string, { tests: Array<{ id: string }> }>
}

const file = process.argv.slice(2).find((a) => !a.startsWith('--')) ?? 'reports/mutation/mutation.json'
const report = JSON.parse(readFileSync(file, 'utf8')) as Report
const testFile = new Map<string, string>()
for (const [path, t] of Object.entries(report.testFiles ?? {}))
  for (const test of t.tests) testFile.set(test.id, path)
const isNew = (testId: string) => /(^|\/)money-[^/]*$/.test(testFile.get(testId) ?? '')

const DETECTED = new Set(['Killed', 'Timeout'])
const COUNTED = new Set(['Killed', 'Timeout', 'Survived', 'NoCoverage'])
const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)} %` : '—')

const rows: string[][] = [['module', 'mutants', 'other tests', 'all tests', 'survived', 'no coverage']]
const sum = { valid: 0, before: 0, after: 0, survived: 0, noCov: 0 }
for (const [path, { mutants }] of Object.entries(report.files).sort()) {
  const valid = mutants.filter((m) => COUNTED.has(m.status))
  const after = valid.filter((m) => DETECTED.has(m.status))
  // a timeout names no test: counted as detected by the other tests too (the conservative side)
  const before = after.filter((m) => m.status === 'Timeout' || !(m.killedBy ?? []).every(isNew))
  const survived = valid.filter((m) => m.status === 'Survived').length
  const noCov = valid.filter((m) => m.status === 'NoCoverage').length
  rows.push([
    path,
    String(valid.length),
    pct(before.length, valid.length),
    pct(after.length, valid.length),
    String(survived),
    String(noCov),
  ])
  sum.valid += valid.length
  sum.before += before.length
  sum.after += after.length
  sum.survived += survived
  sum.noCov += noCov
}
rows.push([
  'all',
  String(sum.valid),
  pct(sum.before, sum.valid),
  pct(sum.after, sum.valid),
  String(sum.survived),
  String(sum.noCov),
])
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)))
for (const r of rows) console.log(`| ${r.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`)

if (process.argv.includes('--survivors'))
  for (const [path, { mutants }] of Object.entries(report.files))
    for (const m of mutants.filter((x) => x.status === 'Survived' || x.status === 'NoCoverage'))
      console.log(`${path}:${m.location.start.line} ${m.status} ${m.mutatorName}: ${m.replacement ?? ''}`)
