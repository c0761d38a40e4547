// Our extensions for the account (issue 13): email confirmation, password reset by a mailed link,
// password change. Every answer is Russian; every call is rate-limited (429 with Retry-After).
import { createRoute, z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import type { ApiApp, AppEnv } from '../context'
import { requireUser } from '../lib/auth'
import { clientNetworkOf } from '../lib/client-address'
import { fail, message } from '../lib/errors'
import { ErrorSchema, errorResponses, jsonContent } from '../lib/schemas'
import { activeUserById } from '../services/auth/accounts'
import { confirmEmail, resendConfirmation } from '../services/auth/email-confirmation'
import {
  CHANGE_LIMIT,
  changePassword,
  requestPasswordReset,
  resetLinkWorks,
  resetPassword,
} from '../services/auth/passwords'
import { hitRateLimit } from '../services/rate-limit'

const tooMany = {
  description: 'Too many requests (Retry-After says when to retry)',
  headers: z.object({ 'Retry-After': z.string() }),
  content: { 'application/json': { schema: ErrorSchema } },
}
const Detail = z.object({ detail: z.string() }).openapi('Detail')

const newPassword = z
  .string(message('field_password_required'))
  .min(8, message('field_password_short'))
  .max(128, message('field_password_long'))
const LinkToken = z
  .string(message('field_link_missing'))
  .min(1, message('field_link_missing'))
  .max(200, message('field_link_invalid'))

/** Link uses (confirm, reset) per client address per window: the tokens are unguessable; this bounds the work. */
const LINK_USES = { perAddress: 30, windowSeconds: 15 * 60 }
/** Confirmation mails per account per hour. */
const RESEND_LIMIT = { perAccount: 3, windowSeconds: 3600 }

const json = <T extends z.ZodType>(schema: T) => ({
  body: { content: { 'application/json': { schema } }, required: true },
})

const confirm = createRoute({
  method: 'post',
  path: '/api/auth/email/confirm/',
  tags: ['auth'],
  summary: 'Confirm the account’s email with the token of the confirmation mail',
  description:
    "Our extension. The link works once, for 48 hours, and only while the account has that email; any other token is a 400. Sent with the bearer token of the same account, the account stays as it is; sent without it (or with another account's), the account is handed to the mailbox's owner: its password is dropped and every sign-in and bound social account ends.",
  request: json(z.object({ token: LinkToken }).openapi('EmailConfirmRequest')),
  responses: { 200: jsonContent(Detail), ...errorResponses(400), 429: tooMany },
})

const resend = createRoute({
  method: 'post',
  path: '/api/auth/email/confirm/resend/',
  tags: ['auth'],
  summary: 'Mail a new confirmation link to the signed-in user (earlier links stop working)',
  description: 'Our extension. 400 when the email is confirmed already; 3 mails an hour.',
  security: [{ bearer: [] }],
  responses: { 202: jsonContent(Detail, 'Accepted'), ...errorResponses(400, 401), 429: tooMany },
})

const resetRequest = createRoute({
  method: 'post',
  path: '/api/auth/password/reset/',
  tags: ['auth'],
  summary: 'Mail a password reset link («Забыли пароль?»)',
  description:
    'Our extension. Always the same 202 answer, whether or not an account has this email; an account gets a mail with a single-use link valid 30 minutes. Limited per email and per client address (429 with Retry-After).',
  request: json(
    z
      .object({ email: z.email(message('field_email_invalid')).max(254, message('field_email_long')) })
      .openapi('PasswordResetRequest'),
  ),
  responses: { 202: jsonContent(Detail, 'Accepted'), ...errorResponses(400), 429: tooMany },
})

const resetCheck = createRoute({
  method: 'post',
  path: '/api/auth/password/reset/check/',
  tags: ['auth'],
  summary: 'Whether a reset link still works (to show its form), without using it',
  description:
    'Public, counted per address with the other link uses (429 with Retry-After beyond it). 400 `reset_link_invalid` for an unknown, used or expired token; the token stays usable.',
  request: json(z.object({ token: LinkToken }).openapi('PasswordResetCheck')),
  responses: { 200: jsonContent(Detail), ...errorResponses(400), 429: tooMany },
})

const resetConfirm = createRoute({
  method: 'post',
  path: '/api/auth/password/reset/confirm/',
  tags: ['auth'],
  summary: 'Set a new password with the token of a reset mail',
  description:
    'Our extension. The link works once and for 30 minutes. Every sign-in of the account ends, the email counts as confirmed, and a notice is mailed. A password that is easy to guess is a 400 on `password`.',
  request: json(z.object({ token: LinkToken, password: newPassword }).openapi('PasswordResetConfirm')),
  responses: { 200: jsonContent(Detail), ...errorResponses(400), 429: tooMany },
})

const change = createRoute({
  method: 'post',
  path: '/api/auth/password/change/',
  tags: ['auth'],
  summary: 'Change the password of the signed-in user',
  description:
    'Our extension. Needs the current password (400 on `current_password` when wrong); the new one must not be easy to guess (400 on `new_password`). Every other sign-in of the account ends; a notice is mailed. 5 attempts per 15 minutes.',
  security: [{ bearer: [] }],
  request: json(
    z
      .object({
        current_password: z
          .string(message('field_current_password_required'))
          .min(1, message('field_current_password_required'))
          .max(128),
        new_password: newPassword,
      })
      .openapi('PasswordChange'),
  ),
  responses: { 200: jsonContent(Detail), ...errorResponses(400, 401), 429: tooMany },
})

function limited(c: Context<AppEnv>, retryAfter: number) {
  c.header('Retry-After', String(retryAfter))
  return c.json({ detail: message('rate_limited', { seconds: retryAfter }), code: 'rate_limited' }, 429)
}

const address = (c: Context<AppEnv>) => clientNetworkOf(c)

/** Counts a link use from this address; the refusal to answer, or null. */
async function limitLinkUse(c: Context<AppEnv>) {
  const hit = await hitRateLimit(
    c.var.deps.db,
    `link:address:${address(c)}`,
    LINK_USES.perAddress,
    LINK_USES.windowSeconds,
  )
  return hit.allowed ? null : limited(c, hit.retryAfter)
}

export function registerAccountSecurity(app: ApiApp) {
  app.openapi(confirm, async (c) => {
    const refused = await limitLinkUse(c)
    if (refused) return refused
    // signed in to the same account: the browser that signed up (decision 045)
    const done = await confirmEmail(c.var.deps.db, c.req.valid('json').token, { byUserId: c.var.userId })
    if (!done) throw fail(400, 'confirm_link_invalid')
    return c.json({ detail: message(done.claimed ? 'email_confirmed_claimed' : 'email_confirmed') }, 200)
  })

  app.openapi(resend, async (c) => {
    const { db, config } = c.var.deps
    const user = await activeUserById(db, requireUser(c))
    if (!user?.email) throw fail(401, 'token_not_valid')
    if (user.emailConfirmedAt) throw fail(400, 'email_already_confirmed')
    const hit = await hitRateLimit(
      db,
      `confirm:resend:${user.id}`,
      RESEND_LIMIT.perAccount,
      RESEND_LIMIT.windowSeconds,
    )
    if (!hit.allowed) return limited(c, hit.retryAfter)
    const email = user.email
    await resendConfirmation(db, config.jwtSecret, user.id, email)
    c.var.deps.jobs?.wake()
    return c.json({ detail: message('confirmation_sent', { email }) }, 202)
  })

  app.openapi(resetRequest, async (c) => {
    const refused = await requestPasswordReset(c.var.deps, c.req.valid('json').email, address(c))
    if (refused) return limited(c, refused.retryAfter)
    return c.json({ detail: message('password_reset_sent') }, 202)
  })

  app.openapi(resetCheck, async (c) => {
    const refused = await limitLinkUse(c)
    if (refused) return refused
    if (!(await resetLinkWorks(c.var.deps.db, c.req.valid('json').token)))
      throw fail(400, 'reset_link_invalid')
    return c.json({ detail: 'ok' }, 200)
  })

  app.openapi(resetConfirm, async (c) => {
    const refused = await limitLinkUse(c)
    if (refused) return refused
    const body = c.req.valid('json')
    await resetPassword(c.var.deps.db, body.token, body.password)
    c.var.deps.jobs?.wake()
    return c.json({ detail: message('password_reset_done') }, 200)
  })

  app.openapi(change, async (c) => {
    const userId = requireUser(c)
    const { db } = c.var.deps
    const hit = await hitRateLimit(
      db,
      `password:change:${userId}`,
      CHANGE_LIMIT.perAccount,
      CHANGE_LIMIT.windowSeconds,
    )
    if (!hit.allowed) return limited(c, hit.retryAfter)
    const body = c.req.valid('json')
    await changePassword(db, userId, c.var.sessionId, body.current_password, body.new_password)
    c.var.deps.jobs?.wake()
    return c.json({ detail: message('password_changed') }, 200)
  })
}
