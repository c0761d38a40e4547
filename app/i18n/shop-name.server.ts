// The shop's name in the messages (issue 37): locales write `{{shop}}` where the name goes, and the
// server fills in the owner's name (from /api/shop/, remembered by the root loader: app/lib/shop.server.ts)
// before any translator sees them. Until the first page load it is the built-in name.
import { SITE_NAME } from '#app/lib/site-name'
import { type Messages, NAME_GUARD } from './translate'

let current = SITE_NAME

export const currentShopName = () => current

/** Remembers the owner's shop name for this process (each page load refreshes it). */
export function rememberShopName(name: string): void {
  if (name) current = name
}

const filled = new WeakMap<Messages, { name: string; messages: Messages }>()

/** The messages with `{{shop}}` replaced by the shop's name (memoised per dictionary and name). */
export function withShopName(messages: Messages, name = current): Messages {
  const hit = filled.get(messages)
  if (hit?.name === name) return hit.messages
  // a name holding `{{…}}` or `$t(` is text, not a placeholder or a nested message (finding L4)
  const literal = name.replace(/[{$]/g, (c) => c + NAME_GUARD)
  const fill = (m: Messages): Messages =>
    Object.fromEntries(
      Object.entries(m).map(([k, v]) => [
        k,
        typeof v === 'string' ? v.replaceAll('{{shop}}', literal) : fill(v),
      ]),
    )
  const out = fill(messages)
  filled.set(messages, { name, messages: out })
  return out
}
