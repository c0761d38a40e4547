// A small translator over i18next-format JSON (nested keys, {{var}}, _one/_few/_many plurals).
// The browser gets this instead of i18next itself: same messages, a fraction of the bytes.

export type Messages = { [key: string]: string | Messages }
export type TParams = Record<string, string | number>
export type TFunction = (key: string, params?: TParams) => string

/**
 * Put after each `{` and `$` of the owner's shop name where it is filled into the messages
 * (./shop-name.server.ts), so that neither this translator nor the server's i18next reads a
 * `{{…}}` or `$t(` the name contains (review finding L4): the name stays literal. Invisible, and
 * removed from every translation once its placeholders are filled.
 */
export const NAME_GUARD = '\u2060'

/** A translation without the name's guards. */
export const unguarded = (text: string): string =>
  text.includes(NAME_GUARD) ? text.replaceAll(NAME_GUARD, '') : text

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

/**
 * A page's messages travel from the root loader as one JSON text (`packMessages`), not as an
 * object: Remix's stream format would spend an index pair on every key, about 0.8 KB more
 * gzipped on the game page (issue 46). In that text `"` and `` ` `` trade places: the text goes
 * into a string of Remix's stream, which goes into a script's string, so each `"` of the JSON
 * reached the page as four characters (`\\\"`); a backtick goes as itself (108 B less gzipped
 * on the Standoff page). The swap is its own inverse, so any text survives it. The last text
 * read is kept, so the provider and the meta functions share one object.
 */
export const packMessages = (messages: Messages): string => swapQuotes(JSON.stringify(messages))

const swapQuotes = (text: string): string => text.replace(/["`]/g, (c) => (c === '"' ? '`' : '"'))

const read = new Map<string, Messages>()

/** The messages of a loader's packed `messages` text (an object passes as it is). */
export function readMessages(packed: string | Messages | null | undefined): Messages {
  if (!packed) return {}
  if (typeof packed !== 'string') return packed
  let messages = read.get(packed)
  if (!messages) {
    messages = JSON.parse(swapQuotes(packed)) as Messages
    // the root's and a page's texts of the last pages or so
    if (read.size >= 4) read.delete(read.keys().next().value as string)
    read.set(packed, messages)
  }
  return messages
}

/** `a` with `b`'s messages added (b wins), nested groups merged; neither is changed. */
export function mergeMessages(a: Messages, b: Messages): Messages {
  const out: Messages = { ...a }
  for (const [key, value] of Object.entries(b)) {
    const mine = out[key]
    out[key] = typeof value === 'object' && typeof mine === 'object' ? mergeMessages(mine, value) : value
  }
  return out
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
    if (!params) return unguarded(text)
    return unguarded(
      text.replace(/\{\{\s*(\w+)\s*\}\}/g, (m, name: string) =>
        params[name] === undefined ? m : String(params[name]),
      ),
    )
  }
}
