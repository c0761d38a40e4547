// The server translates with i18next (decision 002) and the browser with the small translator of
// app/i18n/translate.ts, over the same messages: every message must read the same from both, and
// the locale comes from the spec's cookie before Accept-Language (§1).
import { afterEach, describe, expect, it } from 'vitest'
import { ADMIN_MESSAGES, getServerT, i18nServer, messagesFor, serverT } from '#app/i18n/i18n.server'
import { currentShopName, rememberShopName } from '#app/i18n/shop-name.server'
import { createT, type Messages } from '#app/i18n/translate'
import common from '../../locales/ru/common.json'

function leaves(messages: Messages, prefix = ''): [string, string][] {
  return Object.entries(messages).flatMap(([k, v]) =>
    typeof v === 'string' ? [[`${prefix}${k}`, v] as [string, string]] : leaves(v, `${prefix}${k}.`),
  )
}

/** A value for every placeholder of a message (the count in turn 0, 1, 2, 5, 11, 21, 1.5). */
function paramsFor(text: string, count: number): Record<string, string | number> {
  const params: Record<string, string | number> = {}
  for (const [, name] of text.matchAll(/\{\{\s*(\w+)\s*\}\}/g))
    params[name!] = name === 'count' ? count : `«${name} $& {{x}}»`
  return params
}

const built = currentShopName()
afterEach(() => rememberShopName(built))

describe('the server translator is i18next over locales/ru, reading as the browser does', () => {
  const browser = createT(messagesFor('ru'), 'ru')
  const server = serverT('ru')

  it('every message of common.json, with and without its values, plural forms included', () => {
    const keys = leaves(messagesFor('ru'))
    expect(keys.length).toBeGreaterThan(500)
    let plural = 0
    for (const [key, text] of keys) {
      const base = key.replace(/_(zero|one|two|few|many|other)$/, '')
      if (base !== key) plural++
      expect(server(key)).toBe(browser(key))
      expect(server(base)).toBe(browser(base))
      for (const count of [0, 1, 2, 5, 11, 21, 1.5]) {
        const params = paramsFor(text, count)
        expect(server(base, { ...params, count })).toBe(browser(base, { ...params, count }))
        expect(server(key, params)).toBe(browser(key, params))
      }
    }
    expect(plural).toBeGreaterThan(10)
  })

  it('Russian plurals, values inserted as they are, gaps and unknown keys as the browser shows them', () => {
    const [key] = leaves(messagesFor('ru')).find(([k, v]) => k.endsWith('_few') && v.includes('{{count}}'))!
    const base = key.replace(/_few$/, '')
    expect(server(base, { count: 3 })).toContain('3')
    expect(server(base, { count: 3 })).not.toBe(server(base, { count: 5 }))
    expect(server('no.such.key')).toBe('no.such.key')
    // a group of messages is not a message
    expect(server('errors')).toBe('errors')
    const [withVar, text] = leaves(messagesFor('ru')).find(([, v]) => /\{\{\s*\w+\s*\}\}/.test(v))!
    expect(server(withVar)).toBe(text)
    const name = /\{\{\s*(\w+)\s*\}\}/.exec(text)![1]!
    expect(server(withVar, { [name]: '<b>$1 & $$' })).toContain('<b>$1 & $$')
    // a value passed as undefined leaves the placeholder as written, as the browser does
    const gap = { [name]: undefined } as unknown as Record<string, string>
    expect(server(withVar, gap)).toBe(text)
    expect(server(withVar, gap)).toBe(browser(withVar, gap))
  })

  it('the back-office translator reads admin.json first, then the shop messages', () => {
    const admin = serverT('ru', ['admin', 'common'])
    const browser = createT({ ...messagesFor('ru'), admin: ADMIN_MESSAGES }, 'ru')
    for (const [key, text] of leaves({ admin: ADMIN_MESSAGES }))
      expect(admin(key, paramsFor(text, 2))).toBe(browser(key, paramsFor(text, 2)))
    expect(admin('errors.generic_error')).toBe(browser('errors.generic_error'))
  })

  it("the owner's shop name fills {{shop}} in the server's messages too", () => {
    const [key] = leaves(common).find(([, v]) => v.includes('{{shop}}'))!
    rememberShopName('Лавка Проверки')
    expect(serverT('ru')(key)).toContain('Лавка Проверки')
    expect(serverT('ru')(key)).toBe(createT(messagesFor('ru'), 'ru')(key))
  })

  it('a shop name holding {{…}} or $t( is shown as written by both translators (finding L4)', () => {
    const name = 'Лавка {{year}} $t(nav.contacts) {{-year}} {{shop}} $'
    rememberShopName(name)
    const server = serverT('ru')
    const browser = createT(messagesFor('ru'), 'ru')
    // «© {{year}} {{shop}}. Все права защищены.»: the year fills its own placeholder only
    expect(server('footer.copyright', { year: 2026 })).toBe(`© 2026 ${name}. Все права защищены.`)
    expect(browser('footer.copyright', { year: 2026 })).toBe(`© 2026 ${name}. Все права защищены.`)
    // every message with the name, with and without values, reads the same and holds the name as is
    for (const [key, text] of leaves(common).filter(([, v]) => v.includes('{{shop}}'))) {
      for (const params of [undefined, paramsFor(text, 2)]) {
        const shown = server(key, params)
        expect(shown, key).toContain(name)
        expect(shown, key).toBe(browser(key, params))
        expect(shown, key).not.toContain('\u2060')
      }
    }
  })
})

describe('locale detection through remix-i18next', () => {
  const request = (headers: Record<string, string>) => new Request('http://shop.test/', { headers })

  it('the i18n_redirected cookie comes before Accept-Language', async () => {
    const header = { 'accept-language': 'en-US,en;q=0.9' }
    expect(await i18nServer.getLocale(request({ ...header, cookie: 'a=1; i18n_redirected=ru' }))).toBe('ru')
    // an unsupported cookie value falls through to the header, then the default
    expect(await i18nServer.getLocale(request({ ...header, cookie: 'i18n_redirected=xx' }))).toBe('ru')
    expect(await i18nServer.getLocale(request({ 'accept-language': 'ru-RU,ru;q=0.9' }))).toBe('ru')
    expect(await i18nServer.getLocale(request({}))).toBe('ru')
  })

  it('getServerT answers the locale and its i18next translator', async () => {
    const { locale, t } = await getServerT(request({ cookie: 'i18n_redirected=ru' }))
    expect(locale).toBe('ru')
    expect(t('errors.generic_error')).toBe(createT(messagesFor('ru'))('errors.generic_error'))
    expect(t('errors.generic_error')).not.toBe('errors.generic_error')
  })
})
