// A proxy nobody declared (issue 42): in production, a request carrying X-Forwarded-For from a
// socket peer outside TRUST_PROXY means a proxy stands in front that the shop does not believe, so
// every buyer has the proxy's address. Told once: the overview alert lives in the database (every
// instance, restarts); this process only remembers which peers it has already reported, so it does
// not write for every request.
import type { Db } from '#api/db/client'
import { log } from '#api/lib/log'
import { noticeUndeclaredProxy } from '#api/services/alerts/proxy-notices'
import { CLIENT_SIGNATURE_HEADER, normalizeAddress, type TrustedPeers } from './client-address'

/** Peers reported by this process (a bound: X-Forwarded-For from many peers is one message anyway). */
const REPORTED_MAX = 64

export function watchUndeclaredProxy(db: Db, trustProxy: TrustedPeers) {
  const reported = new Set<string>()
  return (peer: string | undefined, headers: Pick<Headers, 'get'>) => {
    if (!peer || !headers.get('x-forwarded-for') || headers.get(CLIENT_SIGNATURE_HEADER)) return
    const address = normalizeAddress(peer)
    if (trustProxy.has(address) || reported.has(address) || reported.size >= REPORTED_MAX) return
    reported.add(address)
    noticeUndeclaredProxy(db, address).catch((err: unknown) => {
      reported.delete(address)
      log.error({ err }, 'could not record an undeclared proxy')
    })
  }
}
