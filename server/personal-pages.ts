// A signed-in buyer's own pages (the profile, the pay page), kept per buyer (issue 36, decision 103).
//
// These pages show the buyer's orders, so the personal fill (server/personal-fill.ts) cannot make
// them from a template; rendered whole they cost 10–20 ms of CPU, mostly the page's many API reads.
// Here a rendered page is kept under a key made of the page (as the page cache names it), the
// buyer's account and a stamp of that account's data read from the database on every request
// (api/src/services/auth/page-stamp.ts): any write to the buyer's data, from this instance or
// another, gives a new key, so the next request renders again. What else such a page shows (the
// catalogue, the payment methods, the time) is at most CATALOGUE_CACHE_SECONDS old, like every
// other copy the shop keeps. A copy is kept only when the route marked its answer personal
// (PERSONAL_PAGE_HEADER) and it sets no cookie; each hit gets its own nonce and form keys.
import type { PageCache, PageRender } from './page-cache'
import { pageKeyOf } from './page-cache'
import { eligibleAccess } from './personal-fill'

/** The pages that may be kept per buyer: their routes mark the answer personal as well. */
const PROFILE_PATH = /^\/profile(\.data)?$/
const PAY_PATH = /^\/orders\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/pay(\.data)?$/

export interface PersonalPages {
  /** Answers from the buyer's kept copy, or renders (and keeps) it; null: not such a request. */
  serve(req: Request, nonce: string, render: (r: PageRender) => Promise<Response>): Promise<Response | null>
}

export function createPersonalPages(
  cache: PageCache,
  /**
   * The buyer's account and data stamp for an access token (with the stamp of the order of a pay
   * page, which may be a guest's opened by its link); null when it is not a live sign-in.
   */
  keyOf: (access: string, orderId?: string) => Promise<{ key: string } | null>,
): PersonalPages {
  return {
    async serve(req, nonce, render) {
      const path = new URL(req.url).pathname
      const order = PAY_PATH.exec(path)?.[1]
      if (!order && !PROFILE_PATH.test(path)) return null
      const access = eligibleAccess(req)
      if (!access) return null
      let buyer: { key: string } | null
      try {
        buyer = await keyOf(access, order)
      } catch {
        // the database is away: the whole render answers as it would have
        return null
      }
      if (!buyer) return null
      return cache.serve(req, nonce, render, `${buyer.key}\u0000${pageKeyOf(req)}`)
    },
  }
}
