import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { z } from 'zod'

/** Everything the API reads from the environment, validated once. */
export interface ApiConfig {
  jwtSecret: string
  accessTtlSeconds: number
  refreshTtlSeconds: number
  /** A refresh token presented again this soon after its rotation is a concurrent request, not a theft. */
  refreshReuseGraceSeconds: number
  /** How long public catalogue reads may be served from memory (0 = always from the database). */
  catalogueCacheSeconds: number
  /** Public origin of the shop, used for links handed to providers (sandbox checkout, returns). */
  publicUrl: string
  uploadDir: string
  maxJsonBytes: number
  maxUploadBytes: number
  signIn: { perAccount: number; perAddress: number; windowSeconds: number }
  payselection: { siteId: string; secretKey: string; apiUrl: string; webhookUrl?: string } | null
  getpay: { walletId: string; secret: string; payUrl: string } | null
  moogold: { partnerId: string; secretKey: string; apiUrl: string } | null
  social: Partial<Record<SocialProvider, SocialProviderConfig>>
  telegramBotToken?: string
  /** Origins a social sign-in may return to: PUBLIC_URL's and SOCIAL_REDIRECT_ORIGINS (comma list). */
  socialRedirectOrigins: string[]
  /** The offline sandbox payment provider and its checkout page (demo, tests). */
  sandboxPayments: boolean
}

export const SOCIAL_PROVIDERS = ['facebook', 'google', 'steam', 'telegram', 'vk', 'vk_id', 'yandex'] as const
export type SocialProvider = (typeof SOCIAL_PROVIDERS)[number]
/** OAuth 2.0 code flow providers (facebook, google, vk, vk_id, yandex). */
export interface OAuthProviderConfig {
  kind: 'oauth2'
  clientId: string
  clientSecret: string
  authorizeUrl: string
  tokenUrl: string
  userInfoUrl: string
}
/** Steam: OpenID 2.0, no client credentials; assertions are checked at the OP endpoint. */
export interface SteamProviderConfig {
  kind: 'steam'
  openidUrl: string
}
/** Telegram login: the bot's token signs the payload (HMAC-SHA256 keyed by SHA256(token)). */
export interface TelegramProviderConfig {
  kind: 'telegram'
  botToken: string
  botId: string
  authUrl: string
  maxAgeSeconds: number
}
export type SocialProviderConfig = OAuthProviderConfig | SteamProviderConfig | TelegramProviderConfig

/** Real endpoints of each OAuth 2.0 provider; `SOCIAL_<P>_*_URL` overrides them (local fakes). */
const OAUTH_DEFAULTS: Record<
  Exclude<SocialProvider, 'steam' | 'telegram'>,
  Pick<OAuthProviderConfig, 'authorizeUrl' | 'tokenUrl' | 'userInfoUrl'>
> = {
  facebook: {
    authorizeUrl: 'https://www.facebook.com/v19.0/dialog/oauth',
    tokenUrl: 'https://graph.facebook.com/v19.0/oauth/access_token',
    userInfoUrl: 'https://graph.facebook.com/v19.0/me',
  },
  google: {
    authorizeUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenUrl: 'https://oauth2.googleapis.com/token',
    userInfoUrl: 'https://openidconnect.googleapis.com/v1/userinfo',
  },
  vk: {
    authorizeUrl: 'https://oauth.vk.com/authorize',
    tokenUrl: 'https://oauth.vk.com/access_token',
    userInfoUrl: 'https://api.vk.com/method/users.get',
  },
  vk_id: {
    authorizeUrl: 'https://id.vk.com/authorize',
    tokenUrl: 'https://id.vk.com/oauth2/auth',
    userInfoUrl: 'https://id.vk.com/oauth2/user_info',
  },
  yandex: {
    authorizeUrl: 'https://oauth.yandex.ru/authorize',
    tokenUrl: 'https://oauth.yandex.ru/token',
    userInfoUrl: 'https://login.yandex.ru/info',
  },
}

const bool = z.enum(['0', '1', 'true', 'false']).transform((v) => v === '1' || v === 'true')
const int = (def: number) => z.coerce.number().int().positive().default(def)

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional(),
  PUBLIC_URL: z.url().optional(),
  ACCESS_TOKEN_TTL: int(30 * 60),
  REFRESH_TOKEN_TTL: int(30 * 24 * 3600),
  REFRESH_REUSE_GRACE: z.coerce.number().int().min(0).max(300).default(10),
  CATALOGUE_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(2),
  SIGNIN_LIMIT_PER_ACCOUNT: int(10),
  SIGNIN_LIMIT_PER_ADDRESS: int(30),
  SIGNIN_LIMIT_WINDOW: int(15 * 60),
  PAYSELECTION_SITE_ID: z.string().optional(),
  PAYSELECTION_SECRET_KEY: z.string().optional(),
  PAYSELECTION_API_URL: z.url().default('https://gw.payselection.com'),
  PAYSELECTION_WEBHOOK_URL: z.url().optional(),
  GETPAY_WALLET_ID: z.string().optional(),
  GETPAY_SECRET: z.string().optional(),
  GETPAY_PAY_URL: z.url().optional(),
  MOOGOLD_PARTNER_ID: z.string().optional(),
  MOOGOLD_SECRET_KEY: z.string().optional(),
  MOOGOLD_API_URL: z.url().default('https://moogold.com/wp-json/v1/api'),
  TELEGRAM_BOT_TOKEN: z.string().optional(),
  SANDBOX_PAYMENTS: bool.default(true),
})

function socialFromEnv(env: NodeJS.ProcessEnv): ApiConfig['social'] {
  const out: ApiConfig['social'] = {}
  const url = (name: string, def: string) => {
    const v = env[name] || def
    if (!URL.canParse(v)) throw new Error(`Invalid environment:\n  ${name}: must be an absolute URL`)
    return v
  }
  for (const p of SOCIAL_PROVIDERS) {
    const k = p.toUpperCase()
    if (p === 'steam') {
      // Steam needs no credentials: enabled by SOCIAL_STEAM_ENABLED=1 or an explicit endpoint.
      const explicit = env.SOCIAL_STEAM_OPENID_URL
      if (explicit || env.SOCIAL_STEAM_ENABLED === '1' || env.SOCIAL_STEAM_ENABLED === 'true')
        out.steam = {
          kind: 'steam',
          openidUrl: url('SOCIAL_STEAM_OPENID_URL', 'https://steamcommunity.com/openid/login'),
        }
      continue
    }
    if (p === 'telegram') {
      const botToken = env.SOCIAL_TELEGRAM_BOT_TOKEN || env.TELEGRAM_BOT_TOKEN
      // the bot id is the part of the token before the colon
      const botId = env.SOCIAL_TELEGRAM_BOT_ID || botToken?.split(':')[0]
      if (botToken && botId)
        out.telegram = {
          kind: 'telegram',
          botToken,
          botId,
          authUrl: url('SOCIAL_TELEGRAM_AUTH_URL', 'https://oauth.telegram.org/auth'),
          maxAgeSeconds: Number(env.SOCIAL_TELEGRAM_MAX_AGE) || 24 * 3600,
        }
      continue
    }
    const clientId = env[`SOCIAL_${k}_CLIENT_ID`]
    const clientSecret = env[`SOCIAL_${k}_CLIENT_SECRET`]
    if (!clientId || !clientSecret) continue
    const def = OAUTH_DEFAULTS[p]
    out[p] = {
      kind: 'oauth2',
      clientId,
      clientSecret,
      authorizeUrl: url(`SOCIAL_${k}_AUTHORIZE_URL`, def.authorizeUrl),
      tokenUrl: url(`SOCIAL_${k}_TOKEN_URL`, def.tokenUrl),
      userInfoUrl: url(`SOCIAL_${k}_USERINFO_URL`, def.userInfoUrl),
    }
  }
  return out
}

function redirectOrigins(env: NodeJS.ProcessEnv, publicUrl: string): string[] {
  const extra = (env.SOCIAL_REDIRECT_ORIGINS ?? '').split(',').map((o) => o.trim())
  return [publicUrl, ...extra].filter((o) => URL.canParse(o)).map((o) => new URL(o).origin)
}

/**
 * Reads the API configuration. Without JWT_SECRET a random secret is made once and kept in
 * `dataDir` so sessions survive restarts of a single demo instance.
 */
export function loadApiConfig(env: NodeJS.ProcessEnv, opts: { dataDir: string; port: number }): ApiConfig {
  const parsed = schema.safeParse(env)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`)
    throw new Error(`Invalid environment:\n${lines.join('\n')}`)
  }
  const e = parsed.data
  let jwtSecret = e.JWT_SECRET
  if (!jwtSecret) {
    // A single demo instance may make its own; instances behind a load balancer must share one.
    if (e.NODE_ENV === 'production')
      console.warn('JWT_SECRET is not set: using a secret kept in the data folder.')
    const file = path.join(opts.dataDir, 'jwt-secret')
    if (existsSync(file)) jwtSecret = readFileSync(file, 'utf8').trim()
    else {
      mkdirSync(opts.dataDir, { recursive: true })
      jwtSecret = randomBytes(32).toString('hex')
      writeFileSync(file, jwtSecret, { mode: 0o600 })
    }
  }
  return {
    jwtSecret,
    accessTtlSeconds: e.ACCESS_TOKEN_TTL,
    refreshTtlSeconds: e.REFRESH_TOKEN_TTL,
    refreshReuseGraceSeconds: e.REFRESH_REUSE_GRACE,
    catalogueCacheSeconds: e.CATALOGUE_CACHE_SECONDS,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${opts.port}`).replace(/\/$/, ''),
    uploadDir: path.join(opts.dataDir, 'uploads'),
    maxJsonBytes: 64 * 1024,
    maxUploadBytes: 5 * 1024 * 1024,
    signIn: {
      perAccount: e.SIGNIN_LIMIT_PER_ACCOUNT,
      perAddress: e.SIGNIN_LIMIT_PER_ADDRESS,
      windowSeconds: e.SIGNIN_LIMIT_WINDOW,
    },
    payselection:
      e.PAYSELECTION_SITE_ID && e.PAYSELECTION_SECRET_KEY
        ? {
            siteId: e.PAYSELECTION_SITE_ID,
            secretKey: e.PAYSELECTION_SECRET_KEY,
            apiUrl: e.PAYSELECTION_API_URL,
            webhookUrl: e.PAYSELECTION_WEBHOOK_URL,
          }
        : null,
    getpay:
      e.GETPAY_WALLET_ID && e.GETPAY_SECRET
        ? { walletId: e.GETPAY_WALLET_ID, secret: e.GETPAY_SECRET, payUrl: e.GETPAY_PAY_URL ?? '' }
        : null,
    moogold:
      e.MOOGOLD_PARTNER_ID && e.MOOGOLD_SECRET_KEY
        ? { partnerId: e.MOOGOLD_PARTNER_ID, secretKey: e.MOOGOLD_SECRET_KEY, apiUrl: e.MOOGOLD_API_URL }
        : null,
    social: socialFromEnv(env),
    telegramBotToken: e.TELEGRAM_BOT_TOKEN,
    socialRedirectOrigins: redirectOrigins(env, e.PUBLIC_URL ?? `http://localhost:${opts.port}`),
    sandboxPayments: e.SANDBOX_PAYMENTS,
  }
}
