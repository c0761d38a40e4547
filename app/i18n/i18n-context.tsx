import { createContext, type ReactNode, useContext, useMemo } from 'react'
import { createT, type Messages, type TFunction } from './translate'

const I18nContext = createContext<{ locale: string; t: TFunction }>({ locale: 'ru', t: (k) => k })

export function I18nProvider({
  locale,
  messages,
  children,
}: {
  locale: string
  messages: Messages
  children: ReactNode
}) {
  const value = useMemo(() => ({ locale, t: createT(messages, locale) }), [locale, messages])
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>
}

/** The translator of the current locale. */
export function useT(): TFunction {
  return useContext(I18nContext).t
}
