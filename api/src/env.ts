import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { z } from 'zod'

/** Everything the API reads from the environment, validated once. */
export interface ApiConfig {
  jwtSecret: string
  accessTtlSeconds: number
  refreshTtlSeconds: number
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
}

export const SOCIAL_PROVIDERS = ['facebook', 'google', 'steam', 'telegram', 'vk', 'vk_id', 'yandex'] as const
export type SocialProvider = (typeof SOCIAL_PROVIDERS)[number]
export interface SocialProviderConfig {
  clientId: string
  clientSecret: string
  authorizeUrl: string
  tokenUrl: string
  userInfoUrl: string
}

const bool = z.enum(['0', '1', 'true', 'false']).transform((v) => v === '1' || v === 'true')
const int = (def: number) => z.coerce.number().int().positive().default(def)

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional(),
  PUBLIC_URL: z.url().optional(),
  ACCESS_TOKEN_TTL: int(30 * 60),
  REFRESH_TOKEN_TTL: int(30 * 24 * 3600),
  SIGNIN_LIMIT_PER_ACCOUNT: int(10),
  SIGNIN_LIMIT_PER_ADDRESS: int(30),
  SIGNIN_LIMIT_WINDOW: int(15 * 60),
  PAYSELECTION_SITE_ID: z.string().optional(),
  PAYSELECTION_SECRET_KEY: z.string().optional(),
  PAYSELECTION_API_URL: z.url().default('https://gw.payselection.com'),
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
  for (const p of SOCIAL_PROVIDERS) {
    const k = p.toUpperCase()
    const clientId = env[`SOCIAL_${k}_CLIENT_ID`]
    const clientSecret = env[`SOCIAL_${k}_CLIENT_SECRET`]
    if (!clientId || !clientSecret) continue
    out[p] = {
      clientId,
      clientSecret,
      authorizeUrl: env[`SOCIAL_${k}_AUTHORIZE_URL`] ?? '',
      tokenUrl: env[`SOCIAL_${k}_TOKEN_URL`] ?? '',
      userInfoUrl: env[`SOCIAL_${k}_USERINFO_URL`] ?? '',
    }
  }
  return out
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
  }
}
