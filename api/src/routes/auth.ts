import { createRoute, z } from '@hono/zod-openapi'
import type { ApiApp } from '../context'
import { message } from '../lib/errors'
import { ErrorSchema, errorResponses, jsonContent } from '../lib/schemas'
import { signInOrUp, normalizeEmail } from '../services/auth/accounts'
import { rotateRefresh, revokeByToken, startSession } from '../services/auth/tokens'
import { hitRateLimit, resetRateLimit } from '../services/rate-limit'
import { registerOrdersHistory } from './orders-history'
import { registerProfile } from './profile'

export const CLIENT_IP_HEADER = 'x-shop-client-ip'

export const TokensSchema = z
  .object({
    access: z.string(),
    refresh: z.string(),
    is_signed_up: z.boolean().openapi({ description: 'True when this call created the account' }),
  })
  .openapi('AuthTokens')

const CredentialsSchema = z
  .object({
    email: z.email('Неверный адрес электронной почты').max(254, 'Слишком длинный адрес почты'),
    password: z
      .string('Введите пароль')
      .min(8, 'Пароль должен быть не короче 8 символов')
      .max(128, 'Пароль должен быть не длиннее 128 символов'),
  })
  .openapi('Credentials')

const RefreshSchema = z
  .object({ refresh: z.string('Нет токена обновления').min(1).max(4096) })
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
    'An unknown email creates the account (is_signed_up true). A wrong password is a 401. Attempts are limited per account and per client address (429 with Retry-After).',
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
    const address = c.req.header(CLIENT_IP_HEADER) || 'unknown'
    const { perAccount, perAddress, windowSeconds } = config.signIn
    const accountKey = `signin:account:${email}`
    for (const [key, limit] of [
      [`signin:address:${address}`, perAddress],
      [accountKey, perAccount],
    ] as const) {
      const hit = await hitRateLimit(db, key, limit, windowSeconds)
      if (!hit.allowed) {
        c.header('Retry-After', String(hit.retryAfter))
        return c.json(
          { detail: message('rate_limited', { seconds: hit.retryAfter }), code: 'rate_limited' },
          429,
        )
      }
    }
    const { user, created } = await signInOrUp(db, email, body.password)
    // a successful sign-in forgets the account's earlier failures; the address counter stays
    await resetRateLimit(db, accountKey)
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
  registerOrdersHistory(app)
}
