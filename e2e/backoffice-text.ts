// What a person reads on a back-office screen (issue 47): the visible text of its main part must
// hold no untranslated i18n key (`admin.orders.events.receipt`), no raw enum value in snake_case
// (`waiting_for_payment`), no ISO timestamp (`2026-12-01T17:59`) and no unformatted amount
// (`1234.56`, `RUB`). Text meant as a machine's (code, monospace ids) and form controls are left out.
import { readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'

/** The first segments of the pages' message keys: «admin» and common's («account», «payment», …). */
const KEY_ROOTS = [
  'admin',
  ...Object.keys(
    JSON.parse(readFileSync(new URL('../locales/ru/common.json', import.meta.url), 'utf8')) as Record<
      string,
      unknown
    >,
  ),
].filter((k) => /^[a-z][a-z0-9_]*$/.test(k))

const CHECKS: Array<{ what: string; re: RegExp }> = [
  {
    what: 'untranslated key',
    re: new RegExp(`(?<![\\w@./:-])(?:${KEY_ROOTS.join('|')})(?:\\.[a-z0-9_]+)+(?![\\w@-])`, 'g'),
  },
  { what: 'raw enum', re: /(?<![\w@./:-])[a-z]+(?:_[a-z0-9]+)+(?![\w@-])/g },
  { what: 'ISO timestamp', re: /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/g },
  { what: 'unformatted amount', re: /(?<![\d.,])\d+\.\d{2}(?![\d.])/g },
  { what: 'currency code', re: /\bRUB\b/g },
]

/** The problems in a text, each as «what: «the words around it»». */
function textProblemsIn(text: string): string[] {
  const found: string[] = []
  for (const { what, re } of CHECKS)
    for (const m of text.matchAll(re)) {
      const at = m.index ?? 0
      found.push(`${what}: «${text.slice(Math.max(0, at - 30), at + m[0].length + 30).replace(/\s+/g, ' ')}»`)
    }
  return found
}

/** The visible text of the page's main part without machine text (code, monospace ids). */
async function mainText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const main = document.querySelector('main') ?? document.body
    const copy = main.cloneNode(true) as HTMLElement
    for (const el of copy.querySelectorAll(
      'code, kbd, samp, pre, .admin-mono, select, script, style, template',
    ))
      el.remove()
    // innerText of a detached copy ignores CSS: attach it out of sight to measure what shows
    copy.style.position = 'absolute'
    copy.style.left = '-100000px'
    copy.setAttribute('aria-hidden', 'true')
    document.body.append(copy)
    // biome-ignore lint/performance/useDomNodeTextContent: the visible text is what a person reads
    const text = copy.innerText
    copy.remove()
    return text
  })
}

export async function backOfficeTextProblems(page: Page): Promise<string[]> {
  return textProblemsIn(await mainText(page))
}
