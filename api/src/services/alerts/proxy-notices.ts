// A proxy nobody declared turns the fraud rules against the shop (issue 42): behind it every buyer
// has the proxy's address, so the per-address limits and risk rules hit everybody at once, and the
// provider's notifications come from the proxy and are refused. Both are told to the staff as
// event alerts (./events.ts: the database remembers them, for every instance), logged once.
import type { Db } from '../../db/client'
import { log } from '../../lib/log'
import { fill, M } from '../mail/messages'
import { openEventAlert } from './events'

/**
 * A production request carried X-Forwarded-For from `peer`, which TRUST_PROXY does not list:
 * the overview alert names the peer and the setting; the warning is logged by the instance that
 * opened it.
 */
export async function noticeUndeclaredProxy(db: Db, peer: string): Promise<void> {
  const opened = await openEventAlert(db, {
    cause: `undeclared_proxy:${peer}`,
    detail: fill(M.staff_alerts.details.undeclared_proxy, { peer }),
    link: '/admin',
    audience: 'owner',
  })
  if (opened)
    log.warn(
      { peer, setting: 'TRUST_PROXY' },
      `requests with X-Forwarded-For come from ${peer}, which TRUST_PROXY does not list: every buyer looks like ${peer} to the limits and the fraud rules; add the proxy's address to TRUST_PROXY`,
    )
}

/** A provider notification was refused for its address: the staff see the address (and why). */
export async function noticeRefusedNotification(db: Db, provider: string, address: string): Promise<void> {
  const opened = await openEventAlert(db, {
    cause: `notify_refused:${provider}:${address}`,
    detail: fill(M.staff_alerts.details.notify_refused, { provider, address }),
    link: '/admin/payments',
    audience: 'owner',
  })
  if (opened)
    log.warn(
      { provider, address },
      `a ${provider} notification from ${address} was refused: the address is not in the provider's list (behind a proxy, check TRUST_PROXY)`,
    )
}
