// Mail texts start their sentences with a capital (issue 47: the «на проверке» mail began with
// «заказ №», the lowercase fragment M.order.placed). Subjects start with a capital letter or the
// shop's name; no text starts with a fragment that is written to sit inside a sentence.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const mail = JSON.parse(readFileSync(new URL('../../locales/ru/mail.json', import.meta.url), 'utf8'))

function entries(o: unknown, path = ''): Array<[string, string]> {
  if (typeof o === 'string') return [[path, o]]
  if (o && typeof o === 'object')
    return Object.entries(o).flatMap(([k, v]) => entries(v, path ? `${path}.${k}` : k))
  return []
}

const all = entries(mail)
/** Fragments that render lowercase: they belong inside a sentence. */
const LOWERCASE_FRAGMENTS = ['{placed}']

describe('mail texts in sentence case', () => {
  it('every subject starts with a capital letter or the shop’s name', () => {
    const subjects = all.filter(([k]) => /subject$/.test(k))
    expect(subjects.length).toBeGreaterThan(10)
    const bad = subjects.filter(([, v]) => !/^(\p{Lu}|\{shop\})/u.test(v))
    expect(bad).toEqual([])
  })

  it('no text starts with a lowercase fragment such as «заказ № … от …»', () => {
    expect(mail.order.placed).toMatch(/^заказ/)
    const bad = all.filter(([, v]) => LOWERCASE_FRAGMENTS.some((f) => v.startsWith(f)))
    expect(bad).toEqual([])
  })
})
