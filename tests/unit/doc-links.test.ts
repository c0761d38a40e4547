// Issue 48: every pointer to a document that the back-office or a log line shows (a locale text, a
// message in the code) names a file that exists and, when it names a section («раздел «Оплата»»,
// «section «Node.js»»), a heading of that file containing that name.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))
const POINTER = /(docs\/[\w./-]+\.md)(?:,? (?:раздел|section) «([^»]+)»)?/g

function files(p: string, ext: RegExp): string[] {
  if (statSync(p).isDirectory()) return readdirSync(p).flatMap((f) => files(path.join(p, f), ext))
  return ext.test(p) ? [p] : []
}

/** Text a person reads: locale messages, and the code's lines that are not comments. */
function shownTexts(): Array<{ where: string; text: string }> {
  const out: Array<{ where: string; text: string }> = []
  for (const f of files(path.join(root, 'locales'), /\.json$/))
    out.push({ where: path.relative(root, f), text: readFileSync(f, 'utf8') })
  for (const f of ['server', 'api/src', 'app', 'shared', 'scripts'].flatMap((d) =>
    files(path.join(root, d), /\.(ts|tsx|mjs)$/),
  )) {
    const code = readFileSync(f, 'utf8')
      .split('\n')
      .filter((l) => !/^\s*(\/\/|\*|\/\*\*)/.test(l))
      .map((l) => l.replace(/\s\/\/ .*$/, ''))
      .join('\n')
    out.push({ where: path.relative(root, f), text: code })
  }
  return out
}

const headings = (file: string) =>
  readFileSync(path.join(root, file), 'utf8')
    .split('\n')
    .filter((l) => /^#{1,6} /.test(l))

describe('document pointers shown to the owner', () => {
  const pointers = shownTexts().flatMap(({ where, text }) =>
    [...text.matchAll(POINTER)].map((m) => ({ where, file: m[1]!, section: m[2] })),
  )

  it('finds the pointers (the overview’s payment and mail hints, the Node.js warning)', () => {
    const sections = pointers.map((p) => p.section)
    expect(sections).toEqual(expect.arrayContaining(['Оплата', 'Почта', 'Node.js']))
  })

  it('each names a document and a section that exist', () => {
    const broken = pointers.filter(
      (p) =>
        !existsSync(path.join(root, p.file)) ||
        (p.section !== undefined && !headings(p.file).some((h) => h.includes(p.section!))),
    )
    expect(broken.map((p) => `${p.where}: ${p.file}${p.section ? `, «${p.section}»` : ''}`)).toEqual([])
  })
})
