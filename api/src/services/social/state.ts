import { createHash, createHmac, randomBytes } from 'node:crypto'
import { and, eq, lt } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { oauthStates } from '../../db/schema'
import type { ApiConfig } from '../../env'
import { fail } from '../../lib/errors'
import type { SocialProvider } from './providers'

/** A state value is good for this long after the sign-in URL was handed out. */
export const STATE_TTL_MS = 15 * 60 * 1000

/** Issues a one-time state bound to a provider and return address (old ones are swept). */
export async function createState(db: Db, provider: SocialProvider, redirectUri: string): Promise<string> {
  const state = randomBytes(24).toString('base64url')
  await db.delete(oauthStates).where(lt(oauthStates.created, new Date(Date.now() - STATE_TTL_MS)))
  await db.insert(oauthStates).values({ state, provider, redirectUri })
  return state
}

/** Uses up a state: it must exist, be fresh, and match the provider and return address. */
export async function consumeState(
  db: Db,
  state: string | undefined,
  provider: SocialProvider,
  redirectUri: string,
): Promise<void> {
  if (!state) throw fail(400, 'social_state_invalid')
  const [row] = await db
    .delete(oauthStates)
    .where(and(eq(oauthStates.state, state), eq(oauthStates.provider, provider)))
    .returning()
  if (!row || row.redirectUri !== redirectUri || row.created.getTime() < Date.now() - STATE_TTL_MS)
    throw fail(400, 'social_state_invalid')
}

/**
 * PKCE without storing the verifier: it is derived from the state with the server's secret, so
 * only this server can produce it and the state row stays the single one-time record.
 */
export function pkceVerifier(config: ApiConfig, state: string): string {
  return createHmac('sha256', config.jwtSecret).update(`pkce:${state}`).digest('base64url')
}

export function pkceChallenge(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url')
}

/**
 * The return address must be ours: a configured origin and the `/auth/{provider}/redirect/`
 * path (§2). Returns it normalised (no query or fragment).
 */
export function checkRedirectUri(config: ApiConfig, provider: SocialProvider, uri: string): string {
  if (!URL.canParse(uri)) throw fail(400, 'social_redirect_invalid')
  const u = new URL(uri)
  const path = u.pathname.replace(/\/?$/, '/')
  if (!config.socialRedirectOrigins.includes(u.origin) || path !== `/auth/${provider}/redirect/`)
    throw fail(400, 'social_redirect_invalid')
  return `${u.origin}${path}`
}
