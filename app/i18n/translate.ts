// A small translator over i18next-format JSON (nested keys, {{var}}, _one/_few/_many plurals).
// The browser gets this instead of i18next itself: same messages, a fraction of the bytes.

export type Messages = { [key: string]: string | Messages }
export type TParams = Record<string, string | number>
export type TFunction = (key: string, params?: TParams) => string

function lookup(messages: Messages, key: string): string | undefined {
  let node: string | Messages | undefined = messages
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined
    node = node[part]
  }
  return typeof node === 'string' ? node : undefined
}

// Making an Intl.PluralRules is dear (ICU data): one per locale for the process, not one per
// translator (several translators are made for each rendered page).
const pluralRules = new Map<string, Intl.PluralRules>()
function pluralRulesFor(locale: string): Intl.PluralRules {
  let rules = pluralRules.get(locale)
  if (!rules) {
    rules = new Intl.PluralRules(locale)
    if (pluralRules.size < 16) pluralRules.set(locale, rules)
  }
  return rules
}

export function createT(messages: Messages, locale = 'ru'): TFunction {
  const plural = pluralRulesFor(locale)
  return (key, params) => {
    let text: string | undefined
    if (params && typeof params.count === 'number') {
      text = lookup(messages, `${key}_${plural.select(params.count)}`)
    }
    text ??= lookup(messages, key)
    if (text === undefined) return key
    if (!params) return text
    return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (m, name: string) =>
      params[name] === undefined ? m : String(params[name]),
    )
  }
}
