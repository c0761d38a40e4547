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
  // the error screen's; a route's action makes its other error texts on the server
  'errors.any_other',
  'errors.not_found',
  'footer',
  // the footer's legal links and the consent box of the forms that collect an email (issue 33);
  // the receipt lines show in the last-orders popup and on order pages only (issue 46: page weight)
  'legal.consent',
  'legal.nav_consent',
  'legal.nav_refunds',
  'meta.product_name',
  'nav',
  'notifications',
  // the footer's link to the personal data request form (issue 33)
  'personal_data.title',
  'shell',
  // the owner's support contacts in the footer (issue 37)
  'shop_shell',
] as const

/**
 * The order form's texts that only one kind of game shows. The game page leaves them out of the
 * root's messages and its own loader sends those of its game's kind as `pageMessages`
 * (app/routes/products.$id.tsx; the root layout adds them): about a third of the order form's
 * texts a game page no longer carries (issue 46: page weight). A key two kinds show is in both.
 */
export const ORDER_FORM_KIND_KEYS: Readonly<Record<string, readonly string[]>> = {
  SupplyGame: [
    'top_up_balance.account_heading',
    'top_up_balance.server',
    'top_up_balance.server_choose',
    'top_up_balance.server_custom',
    'top_up_balance.errors.server_is_missing',
  ],
  Steam: [
    'top_up_balance.account_heading',
    'top_up_balance.steam_account_id',
    'top_up_balance.steam_account_hint',
    'top_up_balance.amount',
    'top_up_balance.amount_hint',
    'top_up_balance.errors.amount_invalid',
    'top_up_balance.errors.amount_range',
  ],
  StandoffGame: [
    'top_up_balance.account_heading',
    'top_up_balance.standoff_account_id',
    'top_up_balance.avatar',
    'top_up_balance.avatar_hint',
    'top_up_balance.avatar_preview',
    'top_up_balance.avatar_from_order',
    'top_up_balance.skin_heading',
    'top_up_balance.skin_text',
    'top_up_balance.skin_intro',
    'top_up_balance.market_fee',
    'top_up_balance.surplus',
    'top_up_balance.errors.avatar_is_missing',
    'top_up_balance.errors.avatar_not_image',
    'top_up_balance.errors.avatar_too_large',
    'top_up_balance.errors.surplus_invalid',
  ],
}

/** Texts the game page shows only in some states: its loader sends them when the state holds. */
export const GAME_PAGE_STATE_KEYS = {
  /**
   * a game whose player id the shop checks (`game.playerCheck`): the line under the id field; the
   * confirmation step's texts come made with the action's answer (issue 50, finding L6)
   */
  playerCheck: [
    'top_up_balance.player.checking',
    'top_up_balance.player.found',
    'top_up_balance.player.unavailable',
  ],
  /** «Повторить заказ»: the form filled from an earlier order, or that order not found */
  repeat: [
    'products.repeat_heading',
    'products.repeat_hint',
    'products.repeat_missing',
    'top_up_balance.submit_repeat',
  ],
  /** a game with nothing on sale */
  unavailable: ['products.errors.unavailable'],
  /** a game that needs an account (`game.isAuthRequired`): a guest gets the sign-in prompt */
  signInPrompt: ['products.sign_in_required', 'products.sign_in'],
  /** a guest on a device that remembers them (`rememberedHere`): the offer to forget it (issue 50) */
  remembered: ['products.remember'],
} as const

const PAGE_NAMESPACES: ReadonlyArray<readonly [RegExp, readonly string[]]> = [
  [/^\/(\d+)?$/, ['catalogue']],
  [
    /^\/products\/[^/]+$/,
    [
      'products',
      'top_up_balance',
      'manual_delivery',
      // `!path`: left out; the page's own loader sends its kind's share
      '!products.order_summary',
      // made by the action on the server
      '!top_up_balance.errors.sign_in_required',
      '!top_up_balance.player',
      ...[...Object.values(ORDER_FORM_KIND_KEYS), ...Object.values(GAME_PAGE_STATE_KEYS)]
        .flat()
        .map((key) => `!${key}`),
    ],
  ],
  [/^\/gifts\/detalis\/[^/]+$/, ['gifts', 'account.device_data']],
  [/^\/gifts(\/.*)?$/, ['gifts']],
  [/^\/info\/personal-data(\/confirm)?$/, ['info', 'legal.pages', 'personal_data', 'errors.generic_error']],
  [/^\/info(\/.*)?$/, ['info', 'legal.pages']],
  // «Данные на этом устройстве», in the info pages' frame (issue 50)
  [/^\/buyer\/forget$/, ['info', 'legal.pages', 'account.device_data']],
  [/^\/orders\/[^/]+\/pay$/, ['payment', 'review', 'legal.receipt']],
  // the whole payment namespace: a dotted key path here would read as a message this module shows
  [/^\/orders\/[^/]+\/telegram$/, ['payment']],
  [/^\/orders\/find$/, ['order_lookup', 'errors.generic_error']],
  [/^\/orders\/lookup\/[^/]+$/, ['order_lookup', 'account.history', 'account.statuses', 'legal.receipt']],
  [/^\/orders\/[^/]+\/status$/, []],
  [/^\/profile(\/settings|\/balance)?$/, ['account', 'legal.receipt', 'errors.generic_error']],
  [/^\/auth(\/.*)?$/, ['account', 'errors.generic_error']],
]

/** The account popups (sign-in, last orders) open on any page by a search parameter. */
export const POPUP_PARAMS = ['auth', 'last-orders'] as const
const POPUP_NAMESPACES = ['account', 'legal.receipt']

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

/** `messages` without the one at `path` (the groups on its way copied, the rest shared). */
function without(messages: Messages, [head, ...rest]: string[]): Messages {
  const node = messages[head!]
  if (node === undefined) return messages
  const out = { ...messages }
  if (rest.length === 0 || typeof node !== 'object') delete out[head!]
  else out[head!] = without(node, rest)
  return out
}

/** The messages under the given key paths (all of them for null), less those under `!path`s. */
export function pickMessages(messages: Messages, paths: readonly string[] | null): Messages {
  if (!paths) return messages
  let picked: Messages = {}
  for (const path of paths) {
    if (path.startsWith('!')) continue
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
  for (const path of paths) if (path.startsWith('!')) picked = without(picked, path.slice(1).split('.'))
  return picked
}
