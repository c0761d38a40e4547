// Issue 46: the decisions are indexed (docs/decisions/README.md) with their status, date and
// supersessions, and every `decision NNN` in the docs and the code names a decision that exists.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))
const DIR = path.join(root, 'docs/decisions')
const INDEX = 'README.md'

interface Status {
  state: string
  date: string
  /** Earlier decisions this one changes: `NNN`, `NNN (in part)` or `NNN (reverses)`. */
  supersedes: string[]
}

const STATE = /^(accepted|superseded by \d{3}|reversed by \d{3}|superseded in part by \d{3}(, \d{3})*)$/
const numbers = (s: string): string[] => s.match(/\d{3}/g) ?? []

/** The `Status:` line of a decision (the first line after its heading), or an error. */
function parseStatus(text: string): Status | string {
  const lines = text.split('\n')
  if (!/^# \d{3}\b/.test(lines[0] ?? '')) return 'the first line is not `# NNN …`'
  const first = lines.slice(1).find((l) => l.trim() !== '') ?? ''
  if (!first.startsWith('Status: ')) return 'no `Status:` line after the heading'
  const [state = '', date = '', ...rest] = first.slice('Status: '.length).split(' · ')
  if (!STATE.test(state)) return `unknown state «${state}»`
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return `no date (YYYY-MM-DD) after the state: «${date}»`
  const tail = rest.join(' · ')
  const supersedes: string[] = []
  for (const m of tail.matchAll(/\bsupersedes ((?:\d{3}(?:, )?)+)( in part)?/g))
    for (const n of numbers(m[1]!)) supersedes.push(m[2] ? `${n} (in part)` : n)
  for (const m of tail.matchAll(/\breverses (\d{3})/g)) supersedes.push(`${m[1]} (reverses)`)
  return { state, date, supersedes }
}

/** The title of a decision: its heading without the number and the separator. */
const titleOf = (text: string) => text.split('\n')[0]!.replace(/^# \d{3}(\s*[—.:]\s*|\s+)/, '')

/** What each side of a supersession must say, as «NNN: what is missing» lines. */
function oneSided(statuses: Map<string, Status>): string[] {
  const out: string[] = []
  for (const [n, s] of statuses) {
    for (const entry of s.supersedes) {
      const [, earlier = '', how] = /^(\d{3})(?: (.+))?$/.exec(entry) ?? []
      const want =
        how === '(reverses)'
          ? `reversed by ${n}`
          : how === '(in part)'
            ? `superseded in part by ${n}`
            : `superseded by ${n}`
      const other = statuses.get(earlier)
      const said =
        other &&
        (want.startsWith('superseded in part')
          ? other.state.startsWith('superseded in part by ') && numbers(other.state).includes(n)
          : other.state === want)
      if (!said)
        out.push(
          `${earlier}: should say «${want}» (${n} says it ${entry.includes('(') ? entry : `supersedes ${entry}`})`,
        )
    }
    if (s.state === 'accepted') continue
    for (const later of numbers(s.state)) {
      const mark = s.state.startsWith('reversed')
        ? `${n} (reverses)`
        : s.state.includes('in part')
          ? `${n} (in part)`
          : n
      if (!statuses.get(later)?.supersedes.includes(mark))
        out.push(`${later}: should say it changes ${n} («${s.state}»)`)
    }
  }
  return out
}

const decisionFiles = readdirSync(DIR)
  .filter((f) => /^\d{3}-.+\.md$/.test(f))
  .sort()
const texts = new Map(decisionFiles.map((f) => [f, readFileSync(path.join(DIR, f), 'utf8')]))

describe('the decisions index', () => {
  const rows = readFileSync(path.join(DIR, INDEX), 'utf8')
    .split('\n')
    .filter((l) => /^\| \[\d{3}\]/.test(l))
    .map((l) => {
      const [, link = '', title = '', state = '', date = '', supersedes = ''] = l
        .split(/(?<!\\)\|/)
        .map((c) => c.trim())
      const m = /^\[(\d{3})\]\(([^)]+)\)$/.exec(link)
      return { n: m?.[1], file: m?.[2], title, state, date, supersedes }
    })

  it('lists every decision file once, and nothing else', () => {
    expect(rows.map((r) => r.file)).toEqual(decisionFiles)
    expect(rows.every((r) => r.file?.startsWith(`${r.n}-`))).toBe(true)
    const misnumbered = [...texts].filter(([f, text]) => !text.startsWith(`# ${f.slice(0, 3)}`))
    expect(
      misnumbered.map(([f]) => f),
      'a heading whose number is not its file’s',
    ).toEqual([])
  })

  it('each file starts with a `Status:` line: state, date, what it supersedes', () => {
    const bad = [...texts].flatMap(([f, text]) => {
      const s = parseStatus(text)
      return typeof s === 'string' ? [`${f}: ${s}`] : []
    })
    expect(bad).toEqual([])
  })

  it('each row says what its file says: title, status, date, supersedes', () => {
    const wrong: string[] = []
    for (const r of rows) {
      const text = texts.get(r.file ?? '')
      const s = text ? parseStatus(text) : 'no file'
      if (typeof s === 'string' || !text) continue
      const want = [titleOf(text), s.state, s.date, s.supersedes.join(', ') || '—']
      const got = [r.title, r.state, r.date, r.supersedes]
      if (want.join(' | ') !== got.join(' | '))
        wrong.push(`${r.n}: index «${got.join(' | ')}», file «${want.join(' | ')}»`)
    }
    expect(wrong).toEqual([])
  })

  it('every supersession is stated on both sides (041 reversed by 104, 063 in part by 082, …)', () => {
    const statuses = new Map<string, Status>()
    for (const [f, text] of texts) {
      const s = parseStatus(text)
      if (typeof s !== 'string') statuses.set(f.slice(0, 3), s)
    }
    expect(statuses.get('041')?.state).toBe('reversed by 104')
    expect(statuses.get('104')?.supersedes).toContain('041 (reverses)')
    expect(oneSided(statuses)).toEqual([])
  })

  it('a supersession written on one side only is found', () => {
    const s = (state: string, supersedes: string[] = []): Status => ({
      state,
      date: '2026-01-01',
      supersedes,
    })
    expect(
      oneSided(
        new Map([
          ['001', s('accepted')],
          ['002', s('accepted', ['001 (reverses)'])],
        ]),
      ),
    ).toEqual(['001: should say «reversed by 002» (002 says it 001 (reverses))'])
    expect(
      oneSided(
        new Map([
          ['001', s('superseded in part by 002')],
          ['002', s('accepted')],
        ]),
      ),
    ).toEqual(['002: should say it changes 001 («superseded in part by 002»)'])
    expect(parseStatus('# 001 — T\n\nStatus: replaced · 2026-01-01\n')).toBe('unknown state «replaced»')
  })
})

describe('references to decisions', () => {
  const DIRS = ['docs', 'app', 'api/src', 'server', 'shared', 'scripts', 'tests', 'e2e', 'openapi']
  const files = (p: string): string[] =>
    statSync(p).isDirectory()
      ? readdirSync(p).flatMap((f) => files(path.join(p, f)))
      : /\.(md|ts|tsx|mjs|json|yaml)$/.test(p) && !p.endsWith('schema.json') && !p.endsWith('schema.d.ts')
        ? [p]
        : []
  const known = new Set(decisionFiles.map((f) => f.slice(0, 3)))
  // «decision 023», «decisions 038/039», «decisions 009, 038 and 046», «Decision 142's»
  const WORDS = /\b[Dd]ecisions?\s+(\d{3}(?:(?:,\s*|\s+and\s+|\s+or\s+|\/|–)\d{3}(?!\d))*)(?!\d)/g
  // «docs/decisions/036», «decisions/041-scripts-before-first-paint.md»
  const PATHS = /decisions\/(\d{3})(-[\w-]+\.md)?/g
  // a file named alone, after a path given once: «docs/decisions/016-mail-outbox.md and 017-order-lookup-links.md»
  const BARE = /(?<![\w/.-])(\d{3})(-[a-z][\w-]*\.md)/g

  it('every `decision NNN` and `decisions/NNN-…` in the docs and the code names an existing file', () => {
    const broken: string[] = []
    let count = 0
    for (const f of [path.join(root, 'README.md'), ...DIRS.flatMap((d) => files(path.join(root, d)))]) {
      const text = readFileSync(f, 'utf8')
      const where = path.relative(root, f)
      for (const m of text.matchAll(WORDS))
        for (const n of numbers(m[1]!)) {
          count++
          if (!known.has(n)) broken.push(`${where}: decision ${n}`)
        }
      for (const m of [...text.matchAll(PATHS), ...text.matchAll(BARE)]) {
        count++
        if (m[2] ? !texts.has(`${m[1]}${m[2]}`) : !known.has(m[1]!)) broken.push(`${where}: ${m[0]}`)
      }
    }
    expect(count).toBeGreaterThan(300)
    expect(broken).toEqual([])
  })
})
