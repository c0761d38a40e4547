// One storefront request's in-process API reads, kept for the rest of that request (issue 36).
//
// A signed-in page first tries the personal fill (server/personal-fill.ts), which reads the
// buyer's own answers (the profile straight from the API's services; the last order's data of a
// game page through the API). When the page is then rendered whole after all (its template is not
// made yet, or the buyer's values cannot be filled), its loaders would ask the API for the same
// answers again; here they get the ones the fill read: the same GET of the same URL with the same
// Authorization, in the same storefront request, a few milliseconds later. Only 200 answers are
// kept; any other method empties the store, since a write may change what a read answers. Nothing
// outlives the request, so nothing is shared between buyers or instances.

interface KeptAnswer {
  status: number
  headers: Array<[string, string]>
  body: ArrayBuffer
}

export interface ReadReuse {
  /** Calls the API and keeps a 200 answer for later reads of this request. */
  keep(req: Request): Promise<Response>
  /** Answers a read kept before, or calls the API (a write first empties the store). */
  fetch(req: Request): Promise<Response>
}

const keyOf = (req: Request) => `${req.url}\u0000${req.headers.get('authorization') ?? ''}`

export function createReadReuse(call: (req: Request) => Promise<Response>): ReadReuse {
  const kept = new Map<string, KeptAnswer>()
  const answer = (k: KeptAnswer) => new Response(k.body.slice(0), { status: k.status, headers: k.headers })
  return {
    async keep(req) {
      const res = await call(req)
      if (req.method !== 'GET' || res.status !== 200) return res
      const body = await res.arrayBuffer()
      const k = { status: res.status, headers: [...res.headers], body }
      kept.set(keyOf(req), k)
      return answer(k)
    },
    async fetch(req) {
      if (req.method !== 'GET' && req.method !== 'HEAD') kept.clear()
      const k = req.method === 'GET' ? kept.get(keyOf(req)) : undefined
      return k ? answer(k) : call(req)
    },
  }
}
