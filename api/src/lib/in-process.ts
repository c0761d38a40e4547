// A call from the storefront in the same process (server/create-server.ts), for one storefront
// request. It reaches the API as Hono's `c.env`, which no network request can set: calls that come
// over HTTP (the /api/* route, another instance, a client) never carry it.

import type { LiveBearer } from '../services/auth/sessions'

/** What a checked bearer token stands for: its account and sign-in. */
export type BearerClaims = LiveBearer

export interface InProcessCall {
  /**
   * The bearer checks (signature, then the sign-in's row) of this one storefront request, by token:
   * a page's loaders call the API several times with the same token, and the answer cannot change
   * in between except by a write of this same request, which empties it (lib/auth.ts).
   */
  readonly bearers: Map<string, Promise<BearerClaims | null>>
}

/** A fresh marker for one storefront request (page render, `.data` answer or action). */
export function inProcessCall(): InProcessCall {
  return { bearers: new Map() }
}

export interface InProcessBindings {
  inProcess?: InProcessCall
}
