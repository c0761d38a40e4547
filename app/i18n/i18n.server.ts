import { parse as parseCookies, serialize } from 'cookie'
import { RemixI18Next } from 'remix-i18next/server'
import common from '../../locales/ru/common.json'
import { withShopName } from './shop-name.server'
import { createT, type Messages, type TFunction } from './translate'

export const SUPPORTED_LOCALES = ['ru'] as const
export const DEFAULT_LOCALE = 'ru'
/** The i18next fallback when a locale has no message of its own (§1). */
export const FALLBACK_LOCALE = 'en-US'

export const LOCALE_COOKIE = 'i18n_redirected'

/** The chosen locale, kept 365 days, path /, SameSite lax (§1); a plain value such as `ru`. */
export function serializeLocaleCookie(locale: string): string {
  return serialize(LOCALE_COOKIE, locale, { path: '/', sameSite: 'lax', maxAge: 365 * 24 * 60 * 60 })
}

/** The locale saved in the cookie, when it is one we support. */
export function localeFromCookie(request: Request): string | null {
  const value = parseCookies(request.headers.get('cookie') ?? '')[LOCALE_COOKIE]
  return value && (SUPPORTED_LOCALES as readonly string[]).includes(value) ? value : null
}

const messagesByLocale: Record<string, Messages> = { ru: common as Messages }

export const i18nServer = new RemixI18Next({
  detection: {
    supportedLanguages: [...SUPPORTED_LOCALES],
    fallbackLanguage: DEFAULT_LOCALE,
    order: ['header'],
  },
  i18next: {
    supportedLngs: [...SUPPORTED_LOCALES],
    fallbackLng: FALLBACK_LOCALE,
    resources: { ru: { common } },
  },
})

export function messagesFor(locale: string): Messages {
  // the owner's shop name in place of {{shop}} (issue 37)
  return withShopName(messagesByLocale[locale] ?? messagesByLocale[DEFAULT_LOCALE]!)
}

/** Translator for loaders, actions and meta on the server. */
export async function getServerT(request: Request): Promise<{ locale: string; t: TFunction }> {
  const locale = localeFromCookie(request) ?? (await i18nServer.getLocale(request))
  return { locale, t: createT(messagesFor(locale), locale) }
}
