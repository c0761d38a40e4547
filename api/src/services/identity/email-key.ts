// One key per mailbox, for every rule that counts or matches a buyer by email (issue 42): promo
// codes' "once per email", the block lists, the velocity limits, the stock holds and the risk rules.
// Addresses are compared as the mail provider delivers them, so `name+2@` or `n.a.m.e@gmail.com`
// is the same buyer as `name@`. Sub-addressing (`+tag`) is dropped for every
// domain (most providers deliver it to the base mailbox; a rare false match only means a code
// cannot be used twice); dots are dropped where the provider ignores them (Gmail), and Yandex's
// `.`/`-` equivalence and its domain aliases are folded together.

export const GMAIL = new Set(['gmail.com', 'googlemail.com'])
export const YANDEX = new Set([
  'yandex.ru',
  'ya.ru',
  'yandex.com',
  'yandex.by',
  'yandex.kz',
  'yandex.ua',
  'yandex.com.tr',
  'narod.ru',
])

/**
 * The comparison key of an email (stored in promo_redemptions.email, block_list email entries and
 * the orders' email_key).
 */
export function emailKey(email: string): string {
  const e = email.trim().toLowerCase()
  const at = e.lastIndexOf('@')
  if (at < 1) return e
  let local = e.slice(0, at)
  let domain = e.slice(at + 1)
  const plus = local.indexOf('+')
  if (plus > 0) local = local.slice(0, plus)
  if (GMAIL.has(domain)) {
    local = local.replaceAll('.', '') || local
    domain = 'gmail.com'
  } else if (YANDEX.has(domain)) {
    local = local.replaceAll('.', '-')
    domain = 'yandex.ru'
  }
  return `${local}@${domain}`
}
