import { createRoute, z } from '@hono/zod-openapi'
import type { ApiApp } from '../context'
import { clientNetworkOf } from '../lib/client-address'
import { message } from '../lib/errors'
import { ErrorSchema, errorResponses, jsonContent } from '../lib/schemas'
import { signInOrUp, normalizeEmail } from '../services/auth/accounts'
import { recordConsent } from '../services/consent/record'
import { ConsentIn } from './schemas/consent'
import { rotateRefresh, revokeByToken, startSession } from '../services/auth/tokens'
import { admitSignIn, recordSignInFailure, recordSignInSuccess } from '../services/auth/sign-in-throttle'
import { ApiError } from '../lib/errors'
import { registerAccountSecurity } from './account-security'
import { registerOrdersHistory } from './orders-history'
import { registerBalance } from './balance'
import { registerProfile } from './profile'

export const TokensSchema = z
  .object({
    access: z.string(),
    refresh: z.string(),
    is_signed_up: z.boolean().openapi({ description: 'True when this call created the account' }),
  })
  .openapi('AuthTokens')

const CredentialsSchema = z
  .object({
    email: z.email(message('field_email_invalid')).max(254, message('field_email_long')),
    password: z
      .string(message('field_password_required'))
      .min(8, message('field_password_short'))
      .max(128, message('field_password_long')),
    personal_data_consent: ConsentIn.openapi({
      description:
        'Our extension: the consent box of a sign-up. false refuses to create an account (400 on this field); absent: an account is created, recorded as no consent given',
    }),
  })
  .openapi('Credentials')

const RefreshSchema = z
  .object({ refresh: z.string(message('field_refresh_missing')).min(1).max(4096) })
  .openapi('RefreshRequest')

const tooMany = {
  description: 'Too many sign-in attempts (Retry-After says when to retry)',
  headers: z.object({ 'Retry-After': z.string() }),
  content: { 'application/json': { schema: ErrorSchema } },
}

const create = createRoute({
  method: 'post',
  path: '/api/auth/jwt/create/',
  tags: ['auth'],
  summary: 'Sign in by email and password; an unknown email signs up',
  description:
    'An unknown email creates the account (is_signed_up true, email unconfirmed until the link of the confirmation mail is opened); its password must not be easy to guess (400). A wrong password is a 401. Attempts are limited per account and client address and per client address (429 with Retry-After); many failures on one account slow its sign-ins down but never lock its owner out.',
  request: { body: { content: { 'application/json': { schema: CredentialsSchema } }, required: true } },
  responses: { 200: jsonContent(TokensSchema), ...errorResponses(400, 401), 429: tooMany },
})

const refresh = createRoute({
  method: 'post',
  path: '/api/auth/jwt/refresh/',
  tags: ['auth'],
  summary: 'Rotate the refresh token',
  description:
    'Each refresh token works once. Presenting a used one revokes that whole sign-in. Refresh tokens expire at a fixed time after sign-in. Any failure is a 400: clients sign out.',
  request: { body: { content: { 'application/json': { schema: RefreshSchema } }, required: true } },
  responses: {
    200: jsonContent(z.object({ access: z.string(), refresh: z.string() }).openapi('RefreshedTokens')),
    ...errorResponses(400),
  },
})

const logout = createRoute({
  method: 'post',
  path: '/api/auth/logout/',
  tags: ['auth'],
  summary: 'Sign out: revoke the sign-in the refresh token belongs to',
  description: 'Not in the original call list. Always answers 204 so a client can sign out with any token.',
  request: { body: { content: { 'application/json': { schema: RefreshSchema } }, required: true } },
  responses: { 204: { description: 'Signed out' }, ...errorResponses(400) },
})

export function registerAuth(app: ApiApp) {
  app.openapi(create, async (c) => {
    const { db, config } = c.var.deps
    const body = c.req.valid('json')
    const email = normalizeEmail(body.email)
    const address = clientNetworkOf(c)
    const admitted = await admitSignIn(db, config, email, address)
    if ('refused' in admitted) {
      const seconds = admitted.refused.retryAfter
      c.header('Retry-After', String(seconds))
      return c.json({ detail: message('rate_limited', { seconds }), code: 'rate_limited' }, 429)
    }
    if (admitted.delayMs > 0) await new Promise((r) => setTimeout(r, admitted.delayMs))
    let signedIn: Awaited<ReturnType<typeof signInOrUp>>
    try {
      signedIn = await signInOrUp(db, config.jwtSecret, email, body.password, {
        consentRefused: body.personal_data_consent === false,
      })
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) await recordSignInFailure(db, config, email)
      throw e
    }
    const { user, created } = signedIn
    if (created)
      await recordConsent(db, {
        context: 'sign_up',
        given: body.personal_data_consent === true,
        email: user.email,
        userId: user.id,
        ip: address,
        userAgent: c.req.header('user-agent') ?? null,
      })
    // a right password forgets the account's failures and this address's attempts on it
    await recordSignInSuccess(db, config, email, address)
    const tokens = await startSession(db, config, user.id)
    return c.json({ ...tokens, is_signed_up: created }, 200)
  })

  app.openapi(refresh, async (c) => {
    const { db, config } = c.var.deps
    const tokens = await rotateRefresh(db, config, c.req.valid('json').refresh)
    return c.json(tokens, 200)
  })

  app.openapi(logout, async (c) => {
    const { db, config } = c.var.deps
    await revokeByToken(db, config, c.req.valid('json').refresh)
    return c.body(null, 204)
  })

  registerProfile(app)
  registerBalance(app)
  registerAccountSecurity(app)
  registerOrdersHistory(app)
}
