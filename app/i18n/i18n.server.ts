// The server's i18n (decision 002): remix-i18next detects the locale (the spec's cookie
// `i18n_redirected` first, then Accept-Language, §1) and i18next itself translates for loaders,
// actions and the BFF, from the messages in locales/ru. The browser gets the page's share of the
// same messages and the small translator of ./translate.ts (decision 002 measures why).
import { parse as parseCookies, serialize } from 'cookie'
import i18next, { type i18n, type TOptions } from 'i18next'
import { RemixI18Next } from 'remix-i18next/server'
import adminMessages from '../../locales/ru/admin.json'
import common from '../../locales/ru/common.json'
import { currentShopName, withShopName } from './shop-name.server'
import { type Messages, type TFunction, unguarded } from './translate'

export const SUPPORTED_LOCALES = ['ru'] as const
export const DEFAULT_LOCALE = 'ru'
/** The i18next fallback when a locale has no message of its own (§1). */
export const FALLBACK_LOCALE = 'en-US'

export const LOCALE_COOKIE = 'i18n_redirected'

const LOCALE_COOKIE_OPTIONS = { path: '/', sameSite: 'lax', maxAge: 365 * 24 * 60 * 60 } as const

/** The chosen locale, kept 365 days, path /, SameSite lax (§1); a plain value such as `ru`. */
export function serializeLocaleCookie(locale: string): string {
  return serialize(LOCALE_COOKIE, locale, LOCALE_COOKIE_OPTIONS)
}

const isSupported = (value: string | undefined): value is string =>
  !!value && (SUPPORTED_LOCALES as readonly string[]).includes(value)

/** The locale saved in the cookie, when it is one we support. */
export function localeFromCookie(request: Request): string | null {
  const value = parseCookies(request.headers.get('cookie') ?? '')[LOCALE_COOKIE]
  return isSupported(value) ? value : null
}

// remix-i18next reads the cookie through Remix's Cookie interface; Remix's own cookies hold
// base64 JSON, while the spec's `i18n_redirected` holds the plain locale, so this one is made
// with the `cookie` package.
const localeCookie = {
  name: LOCALE_COOKIE,
  isSigned: false,
  expires: undefined,
  parse: async (header: string | null) => parseCookies(header ?? '')[LOCALE_COOKIE] ?? null,
  serialize: async (value: string) => serializeLocaleCookie(value),
}

export const i18nServer = new RemixI18Next({
  detection: {
    supportedLanguages: [...SUPPORTED_LOCALES],
    fallbackLanguage: DEFAULT_LOCALE,
    cookie: localeCookie,
    order: ['cookie', 'header'],
  },
  // its getFixedT would make an i18next instance per call: serverT below keeps one
  i18next: null,
})

const messagesByLocale: Record<string, Messages> = { ru: common as Messages }
/** The back-office texts, under `admin.` (sent only with /admin pages). */
export const ADMIN_MESSAGES = adminMessages as Messages

export function messagesFor(locale: string): Messages {
  // the owner's shop name in place of {{shop}} (issue 37)
  return withShopName(messagesByLocale[locale] ?? messagesByLocale[DEFAULT_LOCALE]!)
}

/** The i18next namespaces of the server: the shop's messages, and the back-office's. */
export type ServerNamespace = 'common' | 'admin'

// One i18next instance for the process, made again only when the owner renames the shop
// (the `{{shop}}` substitution is done in the resources, as for the browser's messages).
let instance: { name: string; i18n: i18n } | undefined

function i18nFor(name: string): i18n {
  if (instance?.name === name) return instance.i18n
  const resources: Record<string, Record<ServerNamespace, Messages>> = {}
  for (const [locale, messages] of Object.entries(messagesByLocale))
    resources[locale] = {
      common: withShopName(messages, name),
      admin: withShopName({ admin: ADMIN_MESSAGES }, name),
    }
  const created = i18next.createInstance()
  void created.init({
    lng: DEFAULT_LOCALE,
    fallbackLng: FALLBACK_LOCALE,
    supportedLngs: [...SUPPORTED_LOCALES],
    resources,
    ns: ['common', 'admin'],
    defaultNS: 'common',
    initImmediate: false,
    // keys are dotted paths only: a colon in a key is not a namespace
    nsSeparator: false,
    // a key that names a group of messages answers the key, as a missing one does
    returnedObjectHandler: (key: string) => key,
    // React escapes; a value is inserted as it is
    interpolation: { escapeValue: false },
    // a placeholder without its value stays as written, so the gap shows
    missingInterpolationHandler: (_text: string, match: RegExpExecArray) => match[0],
  })
  instance = { name, i18n: created }
  return created
}

/** i18next's translator for a locale (the shop's messages, the back-office's first when asked). */
export function serverT(
  locale: string = DEFAULT_LOCALE,
  namespaces: ServerNamespace[] = ['common'],
): TFunction {
  const lng = isSupported(locale) ? locale : DEFAULT_LOCALE
  const fixed = i18nFor(currentShopName()).getFixedT(lng, namespaces)
  // the shop name's guards (./translate.ts) go once i18next has read the message
  return (key, params) => unguarded(fixed(key, params as TOptions) as string)
}

/** Translator for loaders, actions and meta on the server. */
export async function getServerT(request: Request): Promise<{ locale: string; t: TFunction }> {
  const locale = await i18nServer.getLocale(request)
  return { locale, t: serverT(locale) }
}
