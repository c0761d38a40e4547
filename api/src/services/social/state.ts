import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { and, eq, lt } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { oauthStates } from '../../db/schema'
import type { ApiConfig } from '../../env'
import { refuse } from '../../lib/domain-error'
import type { SocialProvider } from './providers'

/** A state value is good for this long after the sign-in URL was handed out. */
export const STATE_TTL_MS = 15 * 60 * 1000

/** A sign-in flow's return is used to sign in, or to bind to the account that started it. */
export type FlowMode = 'auth' | 'bind'

export interface IssuedState {
  state: string
  /** Held only by the browser that started the flow (a cookie); its hash is stored with the state. */
  nonce: string
}

const hashNonce = (nonce: string) => createHash('sha256').update(nonce, 'utf8').digest('hex')

/**
 * Issues a one-time state bound to a provider, a return address, a mode (and for 'bind' the
 * account), and a fresh browser nonce (RFC 9700 §4.7: the state is tied to the user agent).
 * Old states are swept.
 */
export async function createState(
  db: Db,
  input: { provider: SocialProvider; redirectUri: string; mode: FlowMode; userId: number | null },
): Promise<IssuedState> {
  const state = randomBytes(24).toString('base64url')
  const nonce = randomBytes(32).toString('base64url')
  await db.delete(oauthStates).where(lt(oauthStates.created, new Date(Date.now() - STATE_TTL_MS)))
  await db.insert(oauthStates).values({
    state,
    provider: input.provider,
    redirectUri: input.redirectUri,
    nonceHash: hashNonce(nonce),
    mode: input.mode,
    userId: input.mode === 'bind' ? input.userId : null,
  })
  return { state, nonce }
}

/** Who is finishing the flow: the browser's nonce, what for, and (bind) the signed-in account. */
export interface ReturnContext {
  nonce: string | undefined
  mode: FlowMode
  userId: number | null
}

/**
 * Uses up a state (whatever the outcome: a refused state cannot be tried again). It must exist, be
 * fresh, match the provider and return address, have been issued to this browser (its nonce),
 * and for this use: a sign-in state signs in; a bind state binds to the account that asked for it.
 */
export async function consumeState(
  db: Db,
  state: string | undefined,
  provider: SocialProvider,
  redirectUri: string,
  ctx: ReturnContext,
): Promise<void> {
  if (!state) throw refuse('social_state_invalid')
  const [row] = await db
    .delete(oauthStates)
    .where(and(eq(oauthStates.state, state), eq(oauthStates.provider, provider)))
    .returning()
  if (!row || row.redirectUri !== redirectUri || row.created.getTime() < Date.now() - STATE_TTL_MS)
    throw refuse('social_state_invalid')
  if (!ctx.nonce || !sameHash(row.nonceHash, hashNonce(ctx.nonce))) throw refuse('social_browser_mismatch')
  if (row.mode !== ctx.mode || (ctx.mode === 'bind' && row.userId !== ctx.userId))
    throw refuse('social_browser_mismatch')
}

function sameHash(stored: string, given: string): boolean {
  const a = Buffer.from(stored, 'utf8')
  const b = Buffer.from(given, 'utf8')
  return a.length === b.length && timingSafeEqual(a, b)
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
  if (!URL.canParse(uri)) throw refuse('social_redirect_invalid')
  const u = new URL(uri)
  const path = u.pathname.replace(/\/?$/, '/')
  if (!config.socialRedirectOrigins.includes(u.origin) || path !== `/auth/${provider}/redirect/`)
    throw refuse('social_redirect_invalid')
  return `${u.origin}${path}`
}

/**
 * The cookie that carries the nonce for browsers that call the API directly (the spec's client).
 * `__Host-` (Secure, Path=/, no Domain: no sibling subdomain can plant one) wherever the shop is
 * served over https; plain http on localhost cannot hold a Secure cookie.
 */
export function nonceCookieName(config: ApiConfig): string {
  return config.publicUrl.startsWith('https://') ? '__Host-social_nonce' : 'social_nonce'
}
