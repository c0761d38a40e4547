import type { OpenAPIHono } from '@hono/zod-openapi'
import type { Db } from './db/client'
import type { ApiConfig } from './env'
import type { InProcessBindings } from './lib/in-process'
import type { StaffMember } from './services/admin/roles'
import type { UserRow } from './services/auth/accounts'

/** What every handler can reach through `c.var`. */
export interface ApiDeps {
  db: Db
  config: ApiConfig
  /** Outbound HTTP for provider adapters; tests point it at local fakes. */
  fetch: typeof fetch
  /** The local job worker, when this process runs one: `wake()` after enqueueing urgent work. */
  jobs?: { wake(): void }
  /** The caller's address, for per-address limits inside services (set per request: `requestDeps`). */
  clientAddress?: string
}

export interface AppEnv {
  /** Set only by the storefront in the same process (lib/in-process.ts). */
  Bindings: InProcessBindings
  Variables: {
    deps: ApiDeps
    /** Signed-in user id from a valid bearer token, or null for guests. */
    userId: number | null
    /** The sign-in (refresh token family) of that bearer token, or null for guests. */
    sessionId: string | null
    /** That bearer token's account, read by the same check (lib/auth.ts), or null for guests. */
    user: UserRow | null
    /** The back-office member making an /api/admin/ call (set by the admin guard). */
    staff: StaffMember | null
  }
}

export type ApiApp = OpenAPIHono<AppEnv>
