import { createRoute, z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import { getCookie, setCookie } from 'hono/cookie'
import type { ApiApp, AppEnv } from '../context'
import { requireUser } from '../lib/auth'
import { fail, message } from '../lib/errors'
import { errorResponses, jsonContent } from '../lib/schemas'
import { activeUserById } from '../services/auth/accounts'
import { profileOf } from '../services/auth/profile'
import { ProfileSchema } from './schemas/profile'
import { startSession } from '../services/auth/tokens'
import { bindIdentity, signInWithIdentity, unbindProvider } from '../services/social/accounts'
import { authorizeUrl, configuredProviders, identityFromReturn } from '../services/social/flow'
import {
  BIND_PROVIDERS,
  PROVIDER_TITLES,
  SOCIAL_PROVIDERS,
  UNBIND_PROVIDERS,
} from '../services/social/providers'
import { type FlowMode, nonceCookieName, STATE_TTL_MS } from '../services/social/state'
import { TokensSchema } from './auth'

const providerParam = <T extends readonly [string, ...string[]]>(list: T) =>
  z.object({
    provider: z
      .enum(list, message('field_social_provider', { list: list.join(', ') }))
      .openapi({ param: { name: 'provider', in: 'path' } }),
  })

const redirectUri = z
  .string(message('field_redirect_uri_required'))
  .min(1, message('field_redirect_uri_required'))
  .max(2048)

const ReturnSchema = z.object({
  code: z.string(message('field_code_required')).min(1, message('field_code_required')).max(8192).openapi({
    description:
      'OAuth 2.0: the authorization code. Steam: the query string of the OpenID return. Telegram: the signed login payload (JSON or query string).',
  }),
  redirect_uri: redirectUri,
  state: z.string().max(512).optional().openapi({ description: 'The state from the provider’s return' }),
  device_id: z.string().max(512).optional().openapi({ description: 'VK ID only: device_id from its return' }),
  nonce: z
    .string()
    .max(128)
    .optional()
    .openapi({
      description:
        'Our extension, for a server-side client (BFF): the nonce the /url/ call returned, kept by it for the browser. ' +
        'A browser calling the API itself sends nothing: the `social_nonce` cookie set by /url/ carries it.',
    }),
})

const AuthBody = ReturnSchema.extend({
  email: z
    .union([z.literal(''), z.email(message('field_email_invalid')).max(254)])
    .optional()
    .openapi({ description: 'Used for a new account when the provider gives no email' }),
}).openapi('SocialAuthRequest')

const UnbindBody = z
  .object({ code: z.string().max(8192).optional(), redirect_uri: z.string().max(2048).optional() })
  .openapi('SocialUnbindRequest')

const providers = createRoute({
  method: 'get',
  path: '/api/auth/social/providers/',
  tags: ['social'],
  summary: 'Configured social sign-in providers',
  description: 'Not in the original call list: lets the storefront show only the buttons that work.',
  responses: {
    200: jsonContent(
      z
        .object({
          providers: z.array(z.enum(SOCIAL_PROVIDERS)),
          bind: z.array(z.enum(SOCIAL_PROVIDERS)),
          unbind: z.array(z.enum(SOCIAL_PROVIDERS)),
        })
        .openapi('SocialProviders'),
    ),
  },
})

const url = createRoute({
  method: 'get',
  path: '/api/auth/social/{provider}/url/',
  tags: ['social'],
  summary: 'Where to send the shopper to sign in with a provider',
  description:
    'The state in the URL is one-time and bound to the browser that asked: the answer sets a short-lived ' +
    'HttpOnly `social_nonce` cookie (`__Host-social_nonce` over https) whose hash is stored with the state, ' +
    'and /auth/ or /bind/ refuse a return without it (RFC 9700). The state also records its use: sign-in, ' +
    'or binding to the signed-in account that asked (`mode`; by default bind when a bindable provider is ' +
    'asked for by a signed-in user, else sign-in).',
  request: {
    params: providerParam(SOCIAL_PROVIDERS),
    query: z.object({
      redirect_uri: redirectUri.openapi({ param: { name: 'redirect_uri', in: 'query' } }),
      mode: z
        .enum(['auth', 'bind'], message('field_social_mode'))
        .optional()
        .openapi({
          param: { name: 'mode', in: 'query' },
          description: 'Our extension: what the return is for',
        }),
    }),
  },
  responses: {
    200: jsonContent(
      z
        .object({
          url: z.string(),
          nonce: z.string().openapi({
            description: 'Our extension: the browser nonce (also set as the cookie), for server-side clients',
          }),
        })
        .openapi('SocialUrl'),
    ),
    ...errorResponses(400),
  },
})

const auth = createRoute({
  method: 'post',
  path: '/api/auth/social/{provider}/auth/',
  tags: ['social'],
  summary: 'Finish social sign-in: verify the provider’s return and sign in or up',
  description:
    "Public. The provider's code is exchanged and checked against the nonce of the browser that started (body or cookie); answers tokens like sign-in. 409 `social_email_taken` when the email typed for a provider that gives none already belongs to an account.",
  request: {
    params: providerParam(SOCIAL_PROVIDERS),
    body: { content: { 'application/json': { schema: AuthBody } }, required: true },
  },
  responses: { 200: jsonContent(TokensSchema), ...errorResponses(400, 409) },
})

const bind = createRoute({
  method: 'post',
  path: '/api/auth/social/{provider}/bind/',
  tags: ['social'],
  summary: 'Bind a social account to the signed-in user',
  description:
    'Bearer token required (401 without). 409 when that provider account is bound to another user, or this user has one of that provider already.',
  request: {
    params: providerParam(BIND_PROVIDERS),
    body: {
      content: { 'application/json': { schema: ReturnSchema.openapi('SocialBindRequest') } },
      required: true,
    },
  },
  responses: { 200: jsonContent(ProfileSchema), ...errorResponses(400, 401, 409) },
})

const unbind = createRoute({
  method: 'post',
  path: '/api/auth/social/{provider}/unbind/',
  tags: ['social'],
  summary: 'Unbind a social account from the signed-in user',
  description: 'The body of the original call (code, redirect_uri) is accepted and not needed.',
  request: {
    params: providerParam(UNBIND_PROVIDERS),
    body: { content: { 'application/json': { schema: UnbindBody } }, required: false },
  },
  responses: { 200: jsonContent(ProfileSchema), ...errorResponses(400, 401, 404, 409) },
})

/** The starting browser's nonce: the BFF passes it in the body, a browser client in the cookie. */
function browserNonce(c: Context<AppEnv>, fromBody: string | undefined): string | undefined {
  return fromBody || getCookie(c, nonceCookieName(c.var.deps.config)) || undefined
}

export function registerSocial(app: ApiApp) {
  app.openapi(providers, (c) => {
    const on = configuredProviders(c.var.deps)
    return c.json(
      {
        providers: on,
        bind: on.filter((p) => (BIND_PROVIDERS as readonly string[]).includes(p)),
        unbind: on.filter((p) => (UNBIND_PROVIDERS as readonly string[]).includes(p)),
      },
      200,
    )
  })

  app.openapi(url, async (c) => {
    const { provider } = c.req.valid('param')
    const { redirect_uri, mode: asked } = c.req.valid('query')
    const bindable = (BIND_PROVIDERS as readonly string[]).includes(provider)
    const mode: FlowMode = asked ?? (c.var.userId !== null && bindable ? 'bind' : 'auth')
    if (mode === 'bind') {
      requireUser(c)
      if (!bindable) throw fail(400, 'social_bind_unsupported', { provider: PROVIDER_TITLES[provider] })
    }
    const issued = await authorizeUrl(c.var.deps, provider, redirect_uri, { mode, userId: c.var.userId })
    setCookie(c, nonceCookieName(c.var.deps.config), issued.nonce, {
      path: '/',
      httpOnly: true,
      // Lax: the provider's return is a top-level navigation; the API call after it is same-site
      sameSite: 'Lax',
      secure: c.var.deps.config.publicUrl.startsWith('https://'),
      maxAge: STATE_TTL_MS / 1000,
    })
    c.header('cache-control', 'no-store')
    return c.json(issued, 200)
  })

  app.openapi(auth, async (c) => {
    const { provider } = c.req.valid('param')
    const body = c.req.valid('json')
    const identity = await identityFromReturn(c.var.deps, provider, body, {
      nonce: browserNonce(c, body.nonce),
      mode: 'auth',
      userId: null,
    })
    const { userId, created } = await signInWithIdentity(
      c.var.deps.db,
      c.var.deps.config.jwtSecret,
      provider,
      identity,
      body.email || undefined,
    )
    const tokens = await startSession(c.var.deps.db, c.var.deps.config, userId)
    return c.json({ ...tokens, is_signed_up: created }, 200)
  })

  app.openapi(bind, async (c) => {
    const userId = requireUser(c)
    const user = await activeUserById(c.var.deps.db, userId)
    if (!user) throw fail(401, 'token_not_valid')
    const { provider } = c.req.valid('param')
    const body = c.req.valid('json')
    const identity = await identityFromReturn(c.var.deps, provider, body, {
      nonce: browserNonce(c, body.nonce),
      mode: 'bind',
      userId,
    })
    await bindIdentity(c.var.deps.db, userId, provider, identity)
    return c.json(await profileOf(c.var.deps.db, user), 200)
  })

  app.openapi(unbind, async (c) => {
    const userId = requireUser(c)
    const user = await activeUserById(c.var.deps.db, userId)
    if (!user) throw fail(401, 'token_not_valid')
    await unbindProvider(c.var.deps.db, userId, c.req.valid('param').provider)
    return c.json(await profileOf(c.var.deps.db, user), 200)
  })
}
