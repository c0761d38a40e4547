// Which messages a page needs, by its path: namespaces (top-level keys of
// locales/<locale>/common.json) or narrower key paths ("account.sign_in"). A page ships only these, not the whole dictionary; a path this table
// does not know (a new route) gets every namespace, so forgetting it costs bytes, never text.
// tests/unit/message-namespaces.test.ts checks this table against what each route's code uses.
import type { Messages } from './translate'

/** What the root layout (header, footer, toasts, error screen) uses on every page. */
export const SHELL_NAMESPACES = [
  'account.close',
  'account.last_orders.link',
  'account.profile',
  'account.sign_in',
  'account.sign_out',
  'account.user_menu',
  'buttons',
  'common',
  'errors',
  'footer',
  // the footer's legal links and the consent box of the forms that collect an email (issue 33)
  'legal',
  'meta',
  'nav',
  'notifications',
  // the footer's link to the personal data request form (issue 33)
  'personal_data.title',
  'shell',
  // the owner's support contacts in the footer (issue 37)
  'shop_shell',
] as const

const PAGE_NAMESPACES: ReadonlyArray<readonly [RegExp, readonly string[]]> = [
  [/^\/(\d+)?$/, ['catalogue']],
  [/^\/products\/[^/]+$/, ['products', 'top_up_balance', 'manual_delivery']],
  [/^\/gifts\/detalis\/[^/]+$/, ['gifts', 'account']],
  [/^\/gifts(\/.*)?$/, ['gifts']],
  [/^\/info\/personal-data(\/confirm)?$/, ['info', 'personal_data']],
  [/^\/info(\/.*)?$/, ['info']],
  [/^\/orders\/[^/]+\/pay$/, ['payment', 'review']],
  // the whole payment namespace: a dotted key path here would read as a message this module shows
  [/^\/orders\/[^/]+\/telegram$/, ['payment']],
  [/^\/orders\/find$/, ['order_lookup']],
  [/^\/orders\/lookup\/[^/]+$/, ['order_lookup', 'account.history', 'account.statuses']],
  [/^\/orders\/[^/]+\/status$/, []],
  [/^\/profile(\/settings|\/balance)?$/, ['account']],
  [/^\/auth(\/.*)?$/, ['account']],
]

/** The account popups (sign-in, last orders) open on any page by a search parameter. */
export const POPUP_PARAMS = ['auth', 'last-orders'] as const
const POPUP_NAMESPACES = ['account']

/** The namespaces of the page at `pathname` (shell included), or null for every namespace. */
export function namespacesFor(url: string | URL): readonly string[] | null {
  const { pathname, searchParams } = typeof url === 'string' ? new URL(url, 'http://x') : url
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname
  const popup = POPUP_PARAMS.some((p) => searchParams.has(p)) ? POPUP_NAMESPACES : []
  for (const [pattern, namespaces] of PAGE_NAMESPACES)
    if (pattern.test(path)) return [...SHELL_NAMESPACES, ...namespaces, ...popup]
  return null
}

/** Same set of namespaces = same messages: the root need not reload them between such pages. */
export const namespaceKey = (url: string | URL) => namespacesFor(url)?.join() ?? '*'

/** The messages under the given key paths (all of them for null). */
export function pickMessages(messages: Messages, paths: readonly string[] | null): Messages {
  if (!paths) return messages
  const picked: Messages = {}
  for (const path of paths) {
    const parts = path.split('.')
    let from: Messages | string | undefined = messages
    let to = picked
    parts.forEach((part, i) => {
      if (typeof from !== 'object') return
      from = from[part]
      if (from === undefined) return
      if (i === parts.length - 1) to[part] = from
      else {
        to[part] ??= {}
        to = to[part] as Messages
      }
    })
  }
  return picked
}
