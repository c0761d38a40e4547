// Each page ships only the message namespaces app/i18n/namespaces.ts lists for its path. This
// checks that list against the code: every namespace a route module (and what it imports) can
// show is shipped on a sample path of that route, so no page ever shows a raw message key.
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import {
  GAME_PAGE_STATE_KEYS,
  namespacesFor,
  ORDER_FORM_KIND_KEYS,
  pickMessages,
  SHELL_NAMESPACES,
} from '#app/i18n/namespaces'
import { type Messages, mergeMessages, packMessages, readMessages } from '#app/i18n/translate'
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
    // without a popup, the big account namespace and the receipt lines of the last orders stay
    // out; what the header shows is in
    const popupOnly = (k: string) => k.startsWith('account.') || k.startsWith('legal.receipt')
    expect(uncovered(used, SHELL_NAMESPACES).filter((k) => !popupOnly(k))).toEqual([])
    expect(namespacesFor('/products/1')).not.toContain('legal.receipt')
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

  it('a game page leaves the other kinds’ form texts out; its loader adds its own kind’s', () => {
    const before = JSON.stringify(dictionary)
    const at = (m: Messages, key: string) =>
      key
        .split('.')
        .reduce<Messages | string | undefined>((n, p) => (typeof n === 'object' ? n[p] : undefined), m)
    const shipped = namespacesFor('/products/7')!
    const whole = pickMessages(
      dictionary,
      shipped.filter((p) => !p.startsWith('!')),
    )
    const root = pickMessages(dictionary, shipped)
    expect(Object.keys(ORDER_FORM_KIND_KEYS).sort()).toEqual(['StandoffGame', 'Steam', 'SupplyGame'])
    for (const keys of [...Object.values(ORDER_FORM_KIND_KEYS), ...Object.values(GAME_PAGE_STATE_KEYS)]) {
      const page = mergeMessages(root, readMessages(packMessages(pickMessages(dictionary, keys))))
      for (const key of keys) {
        expect(at(whole, key), key).toBeDefined()
        expect(at(root, key), key).toBeUndefined()
        expect(at(page, key), key).toEqual(at(whole, key))
      }
      // what every kind shows stays with the root's messages
      expect(at(page, 'top_up_balance.errors.mail_invalid')).toBe(
        at(whole, 'top_up_balance.errors.mail_invalid'),
      )
    }
    expect(JSON.stringify(root).length).toBeLessThan(JSON.stringify(whole).length - 1000)
    // leaving texts out copies; the dictionary itself is untouched
    expect(JSON.stringify(dictionary)).toBe(before)
  })

  it('packed messages read back exactly, quotes, backticks and backslashes included; the locale packs with no " to escape', () => {
    const messages: Messages = {
      a: { quote: 'Он сказал: "да"', tick: 'код `A-1` и "B"', slash: 'C:\\путь\\', plain: 'Войти' },
      'ключ`"': 'значение',
    }
    expect(readMessages(packMessages(messages))).toEqual(messages)
    const packed = packMessages(dictionary)
    expect(packed).not.toContain('"')
    expect(readMessages(packed)).toEqual(dictionary)
  })
})
