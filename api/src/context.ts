import type { OpenAPIHono } from '@hono/zod-openapi'
import type { Db } from './db/client'
import type { ApiConfig } from './env'

/** What every handler can reach through `c.var`. */
export interface ApiDeps {
  db: Db
  config: ApiConfig
  /** Outbound HTTP for provider adapters; tests point it at local fakes. */
  fetch: typeof fetch
}

export interface AppEnv {
  Variables: {
    deps: ApiDeps
    /** Signed-in user id from a valid bearer token, or null for guests. */
    userId: number | null
  }
}

export type ApiApp = OpenAPIHono<AppEnv>
