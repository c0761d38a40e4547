// npm run docs:settings: the README's configuration tables, generated from .env.example (the one
// list of settings, their defaults and what each does; decision 132). A test compares both with
// the names and defaults the code reads (tests/unit/settings-docs.test.ts).
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export interface Setting {
  name: string
  /** The default shown (`# NAME=value`), or the placeholder to edit (`NAME=value`); '' when none. */
  value: string
  /** true for a line an owner edits (`NAME=…`), false for a commented default (`# NAME=…`). */
  active: boolean
  comment: string
  section: string
}

const root = fileURLToPath(new URL('..', import.meta.url))
export const ENV_EXAMPLE = path.join(root, '.env.example')
export const README = path.join(root, 'README.md')
const BEGIN = '<!-- settings: generated from .env.example by npm run docs:settings -->'
const END = '<!-- settings: end -->'

/** Reads .env.example; throws on a setting without its one-line comment or a name given twice. */
export function parseEnvExample(text: string): Setting[] {
  const out: Setting[] = []
  let section = ''
  let comment = ''
  for (const line of text.split('\n')) {
    const heading = /^## (.+)$/.exec(line)
    const setting = /^(# )?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line)
    if (heading) {
      section = heading[1]!
      comment = ''
    } else if (setting) {
      const name = setting[2]!
      if (!comment) throw new Error(`.env.example: ${name} has no comment line above it`)
      if (out.some((s) => s.name === name)) throw new Error(`.env.example: ${name} is listed twice`)
      out.push({ name, value: setting[3]!, active: !setting[1], comment, section })
      comment = ''
    } else if (line.startsWith('# ')) comment = section ? line.slice(2) : ''
    else comment = ''
  }
  return out
}

const cell = (s: string) => s.replaceAll('|', '\\|')

/** A Markdown table with its columns padded, as the formatter (Biome) writes it. */
function table(head: string[], rows: string[][]): string[] {
  const width = (s: string) => [...s].length
  const widths = head.map((h, i) => Math.max(3, width(h), ...rows.map((r) => width(r[i] ?? ''))))
  const line = (r: string[]) =>
    `| ${r.map((c, i) => c + ' '.repeat((widths[i] ?? 0) - width(c))).join(' | ')} |`
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)]
}

/** The README's tables: one per section of .env.example. */
export function settingsTables(settings: Setting[]): string {
  const parts: string[] = []
  for (const section of [...new Set(settings.map((s) => s.section))]) {
    const rows = settings
      .filter((x) => x.section === section)
      .map((s) => [`\`${s.name}\``, s.value && !s.active ? `\`${cell(s.value)}\`` : '—', cell(s.comment)])
    parts.push(`**${section}**`, '', ...table(['variable', 'default', 'meaning'], rows), '')
  }
  return parts.join('\n')
}

/** The README with its settings block replaced by what .env.example says. */
export function readmeWithSettings(readme: string, envExample: string): string {
  const from = readme.indexOf(BEGIN)
  const to = readme.indexOf(END)
  if (from < 0 || to < from) throw new Error(`README.md: the markers ${BEGIN} … ${END} are missing`)
  return `${readme.slice(0, from + BEGIN.length)}\n\n${settingsTables(parseEnvExample(envExample))}\n${readme.slice(to)}`
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const next = readmeWithSettings(readFileSync(README, 'utf8'), readFileSync(ENV_EXAMPLE, 'utf8'))
  writeFileSync(README, next)
  console.log('README.md: configuration tables written from .env.example')
}
