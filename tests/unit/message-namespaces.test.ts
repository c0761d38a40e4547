// Each page ships only the message namespaces app/i18n/namespaces.ts lists for its path. This
// checks that list against the code: every namespace a route module (and what it imports) can
// show is shipped on a sample path of that route, so no page ever shows a raw message key.
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { namespacesFor, pickMessages, SHELL_NAMESPACES } from '#app/i18n/namespaces'
import { messageKeysUsedBy, uncovered } from '#tests/helpers/message-namespaces'

const root = fileURLToPath(new URL('../..', import.meta.url))
const dictionary = JSON.parse(readFileSync(`${root}locales/ru/common.json`, 'utf8'))
const known = new Set(Object.keys(dictionary))

/** A path the flat route file answers: `orders.$orderId.pay.tsx` → `/orders/x1/pay`. */
function samplePath(file: string): string {
  const segments = file
    .replace(/\.tsx?$/, '')
    .split('.')
    .filter((s) => s !== '_index' && s !== '')
    .map((s) => s.replace(/_$/, ''))
    .map((s) => (s === '$' ? 'no-such-page' : s.startsWith('$') ? (s === '$page' ? '2' : 'x1') : s))
    .map((s) => s.replace(/\[|\]/g, ''))
  return `/${segments.join('/')}`
    .replace(/\/robots\/txt$/, '/robots.txt')
    .replace(/\/sitemap\/xml$/, '/sitemap.xml')
}

describe('message namespaces per page', () => {
  it('the root layout: the shell covers it, with the account popups open where they open', () => {
    const used = messageKeysUsedBy(`${root}app/root.tsx`, known, root)
    expect(uncovered(used, namespacesFor('/?auth=1')!)).toEqual([])
    expect(uncovered(used, namespacesFor('/?last-orders=1')!)).toEqual([])
    // without a popup, the big account namespace stays out; what the header shows is in
    expect(uncovered(used, SHELL_NAMESPACES).every((k) => k.startsWith('account.'))).toBe(true)
    expect(namespacesFor('/')).not.toContain('account')
  })

  it.each(readdirSync(`${root}app/routes`).map((f) => [f]))('%s gets every namespace it uses', (file) => {
    const path = samplePath(file)
    const shipped = namespacesFor(path) ?? [...known]
    const used = messageKeysUsedBy(`${root}app/routes/${file}`, known, root)
    expect(uncovered(used, shipped), `${file} at ${path}`).toEqual([])
  })

  it('a page ships a fraction of the dictionary; an unknown page gets all of it', () => {
    const full = JSON.stringify(dictionary).length
    const game = JSON.stringify(pickMessages(dictionary, namespacesFor('/products/7'))).length
    expect(game).toBeLessThan(full * 0.6)
    expect(pickMessages(dictionary, namespacesFor('/something/new/here'))).toEqual(dictionary)
    expect(namespacesFor('/products/7/')).toEqual(namespacesFor('/products/7'))
  })
})
