import { createHmac } from 'node:crypto'
import path from 'node:path'
import { z } from 'zod'
import { isAddressOrCidr } from './lib/address-ranges'
import { type MailConfig, mailConfigFromEnv } from './services/mail/config'
import { CONTRACT_WATCH_FILE } from '../../shared/contract-watch'
import { isLocalHost } from '../../shared/local-host'
import { shopSecret } from '../../shared/shop-secret'
import { DEFAULT_SHOP_TIMEZONE, isTimeZone } from '../../shared/shop-time'

/** YooKassa's published notification addresses (its documentation, "IP addresses of notifications"). */
const YOOKASSA_RANGES =
  '185.71.76.0/27,185.71.77.0/27,77.75.153.0/25,77.75.156.11,77.75.156.35,77.75.154.128/25,2a02:5180::/32'

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
  /** Sign-in throttling (services/auth/sign-in-throttle.ts): 429s per pair and address, delays per account. */
  signIn: {
    perPair: number
    perAddress: number
    perAccount: number
    slowdownMaxMs: number
    windowSeconds: number
  }
  /** Promo code checks (show/activate): per client address, and per order or account. */
  promoLimits: { perAddress: number; perTarget: number; windowSeconds: number }
  /** Image uploads (avatars): per client address, and per order or account. */
  uploadLimits: { perAddress: number; perTarget: number; windowSeconds: number }
  /**
   * Fraud limits (services/risk): the defaults of the «Антифрод» settings the back-office may change
   * (ORDER_LIMIT_*, PAYMENT_LIMIT_*, RISK_PAID_PER_ADDRESS, RISK_RULES), and the card-hash key.
   */
  risk: {
    orderPerAddress: number
    orderPerEmail: number
    paymentPerAddress: number
    paymentPerEmail: number
    paidPerAddress: number
    /** Rules on unless the back-office says otherwise (RISK_RULES: a comma list; default all). */
    rulesOn: string[] | null
    /** HMAC key of card hashes: derived from JWT_SECRET (decision 073). */
    cardKey: string
  }
  payselection: { siteId: string; secretKey: string; apiUrl: string; webhookUrl?: string } | null
  getpay: { walletId: string; secret: string; payUrl: string } | null
  /** YooKassa (providers/yookassa.ts); `notifyFrom`: the CIDRs its notifications may come from. */
  yookassa: { shopId: string; secretKey: string; apiUrl: string; notifyFrom: string[] } | null
  /** ATOL Online v5, the cloud cash register of the `atol` receipt transport (services/receipts/atol.ts). */
  atol: { login: string; password: string; group: string; apiUrl: string } | null
  moogold: { partnerId: string; secretKey: string; apiUrl: string } | null
  social: Partial<Record<SocialProvider, SocialProviderConfig>>
  /** The Telegram bot of the staff desk and buyers' order news (services/telegram, decision 140). */
  telegram: TelegramConfig | null
  /** Origins a social sign-in may return to: PUBLIC_URL's and SOCIAL_REDIRECT_ORIGINS (comma list). */
  socialRedirectOrigins: string[]
  /** The offline sandbox payment provider and its checkout page (demo, tests). */
  sandboxPayments: boolean
  /** Demo mode: neither DATABASE_URL nor PUBLIC_URL (see runMode). */
  demo: boolean
  /** Every page shows the «Демо-магазин» strip: demo mode, or sandbox payments asked for. */
  demoStrip: boolean
  /**
   * The e2e run's contract watch (issue 44, lib/contract-watch.ts): every API exchange checked
   * against openapi/schema.json, problems and counts appended to this file. Only a demo process
   * with E2E=1 (a production start refuses E2E=1); null everywhere else.
   */
  contractWatchFile: string | null
  /** Mail: SMTP_URL / MAIL_FROM, or .eml files under DATA_DIR/mail (services/mail/config.ts). */
  mail: MailConfig
  /** Back-office owners by (confirmed) email, lower-case. */
  adminEmails: string[]
  /** Back-office changes one staff member may make per window (a stolen session or a runaway script). */
  adminWriteLimit: { perStaff: number; windowSeconds: number }
  /** Stock held for an order whose payment started, and how long an unpaid order stays open. */
  /** maxHeldCodes: codes held at once per client address, per email and per account (decision 046) */
  /** maxHeldListings: Standoff listing prices held at once per client network, email and account (issue 42) */
  orderClock: {
    stockHoldMinutes: number
    orderTtlHours: number
    maxHeldCodes: number
    maxHeldListings: number
  }
  /** IPv6 clients are one client per network of this prefix length for every limit (IPv4: the address). */
  clientIpv6Prefix: number
  /** A paid order no person delivered within this many hours fails and is refunded (services/delivery). */
  deliveryRefundHours: number
  /** Staff are warned this many hours before an order is refunded by itself (decision 125). */
  deliveryRefundWarnHours: number
  /** The shop's time zone until the owner chooses one at /admin/shop (decision 136). */
  shopTimeZone: string
  /** Player look-up before paying (services/player-check/). */
  playerCheck: PlayerCheckConfig
}

export interface TelegramConfig {
  token: string
  apiUrl: string
  /** webhook: Telegram posts updates to /api/telegram/webhook/; polling: a job asks getUpdates. */
  mode: 'webhook' | 'polling'
  /** setWebhook's secret_token, derived from the token (the same on every instance). */
  webhookSecret: string
}

/** The player-lookup adapters: an unconfigured one leaves its games without a check. */
export interface PlayerCheckConfig {
  /** The offline sandbox adapter (demo, tests); follows SANDBOX_PAYMENTS unless PLAYER_CHECK_SANDBOX says. */
  sandbox: boolean
  smileone: { uid: string; email: string; key: string; apiUrl: string } | null
  apigames: { merchantId: string; secretKey: string; apiUrl: string } | null
  /** How long one call to a supplier may take before it counts as "not answering". */
  timeoutMs: number
  /** How long an answer (found or not found) is reused. */
  cacheSeconds: number
  /** Check calls per client address per minute. */
  perAddress: number
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
  STOCK_HOLD_MINUTES: z.coerce.number().int().min(1).max(1440).default(30),
  STOCK_HOLD_MAX_CODES: z.coerce.number().int().min(1).max(10_000).default(20),
  STOCK_HOLD_MAX_LISTINGS: z.coerce.number().int().min(1).max(24).default(2),
  CLIENT_IPV6_PREFIX: z.coerce.number().int().min(32).max(128).default(64),
  ORDER_TTL_HOURS: z.coerce.number().int().min(1).max(720).default(24),
  DELIVERY_REFUND_HOURS: z.coerce.number().int().min(1).max(720).default(24),
  DELIVERY_REFUND_WARN_HOURS: z.coerce.number().int().min(0).max(720).default(2),
  SHOP_TIMEZONE: z
    .string()
    .trim()
    .default(DEFAULT_SHOP_TIMEZONE)
    .refine(isTimeZone, 'an IANA time zone such as Europe/Moscow or Asia/Yekaterinburg'),
  SIGNIN_LIMIT_PER_PAIR: int(10),
  SIGNIN_LIMIT_PER_ACCOUNT: int(20),
  SIGNIN_LIMIT_PER_ADDRESS: int(30),
  SIGNIN_SLOWDOWN_MAX_MS: z.coerce.number().int().min(0).max(30_000).default(8000),
  SIGNIN_LIMIT_WINDOW: int(15 * 60),
  PROMO_LIMIT_PER_ADDRESS: int(30),
  PROMO_LIMIT_PER_TARGET: int(10),
  PROMO_LIMIT_WINDOW: int(10 * 60),
  UPLOAD_LIMIT_PER_ADDRESS: int(30),
  UPLOAD_LIMIT_PER_TARGET: int(10),
  UPLOAD_LIMIT_WINDOW: int(60 * 60),
  ORDER_LIMIT_PER_ADDRESS: int(30),
  ORDER_LIMIT_PER_EMAIL: int(10),
  PAYMENT_LIMIT_PER_ADDRESS: int(30),
  PAYMENT_LIMIT_PER_EMAIL: int(10),
  // new emails paying from one network in an hour before the next new one is held (decision 142)
  RISK_PAID_PER_ADDRESS: int(10),
  RISK_RULES: z.string().max(500).optional(),
  ADMIN_WRITE_LIMIT: int(300),
  ADMIN_WRITE_WINDOW: int(60),
  PAYSELECTION_SITE_ID: z.string().optional(),
  PAYSELECTION_SECRET_KEY: z.string().optional(),
  PAYSELECTION_API_URL: z.url().default('https://gw.payselection.com'),
  PAYSELECTION_WEBHOOK_URL: z.url().optional(),
  ATOL_LOGIN: z.string().optional(),
  ATOL_PASSWORD: z.string().optional(),
  ATOL_GROUP: z.string().optional(),
  ATOL_API_URL: z.url().default('https://online.atol.ru/possystem/v5'),
  GETPAY_WALLET_ID: z.string().optional(),
  YOOKASSA_SHOP_ID: z.string().optional(),
  YOOKASSA_SECRET_KEY: z.string().optional(),
  YOOKASSA_API_URL: z.url().default('https://api.yookassa.ru/v3'),
  YOOKASSA_NOTIFY_FROM: z
    .string()
    .default(YOOKASSA_RANGES)
    .transform((v) =>
      v
        .split(',')
        .map((r) => r.trim())
        .filter(Boolean),
    )
    .refine(
      (list) => list.length > 0 && list.every(isAddressOrCidr),
      'YOOKASSA_NOTIFY_FROM: a comma-separated list of addresses and CIDRs',
    ),
  GETPAY_SECRET: z.string().optional(),
  GETPAY_PAY_URL: z.url().optional(),
  MOOGOLD_PARTNER_ID: z.string().optional(),
  MOOGOLD_SECRET_KEY: z.string().optional(),
  MOOGOLD_API_URL: z.url().default('https://moogold.com/wp-json/v1/api'),
  TELEGRAM_BOT_TOKEN: z.string().optional(),
  TELEGRAM_API_URL: z.url().default('https://api.telegram.org'),
  TELEGRAM_MODE: z.enum(['webhook', 'polling']).optional(),
  SANDBOX_PAYMENTS: bool.optional(),
  PLAYER_CHECK_SANDBOX: bool.optional(),
  SMILEONE_UID: z.string().optional(),
  SMILEONE_EMAIL: z.string().optional(),
  SMILEONE_KEY: z.string().optional(),
  SMILEONE_API_URL: z.url().default('https://www.smile.one/ru/smilecoin/api'),
  APIGAMES_MERCHANT_ID: z.string().optional(),
  APIGAMES_SECRET_KEY: z.string().optional(),
  APIGAMES_API_URL: z.url().default('https://v1.apigames.id'),
  PLAYER_CHECK_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(4000),
  PLAYER_CHECK_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(300),
  PLAYER_CHECK_LIMIT_PER_ADDRESS: int(30),
  ADMIN_EMAILS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((e) => e.trim().toLowerCase())
        .filter(Boolean),
    )
    .refine(
      (list) => list.every((e) => /^[^@\s]+@[^@\s]+$/.test(e)),
      'ADMIN_EMAILS: a comma-separated list of emails',
    ),
})

/** Every setting's schema, for the settings documentation test (tests/unit/settings-docs.test.ts). */
export const apiSettingsSchema = schema

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

export type RunMode = 'demo' | 'production'

/**
 * Demo or production, never in between (docs/decisions/013-run-modes.md): `npm start` with neither
 * DATABASE_URL nor PUBLIC_URL is the demo (sandbox payments, demo seed, a generated JWT secret);
 * anything else is production, where those are off unless asked for and unsafe settings refuse to
 * start. The one place this rule lives; server/env.ts and the storefront's strip ask it.
 */
export function runMode(env: Record<string, string | undefined>): RunMode {
  return env.DATABASE_URL || env.PUBLIC_URL ? 'production' : 'demo'
}

/**
 * What stops a production start ("VARIABLE: why" lines; none in demo mode): what several instances
 * and real shoppers need. Checked by server/env.ts before the database is touched, and here.
 */
export function runModeProblems(env: Record<string, string | undefined>): string[] {
  if (runMode(env) === 'demo') return []
  const e = { JWT_SECRET: env.JWT_SECRET || undefined, PUBLIC_URL: env.PUBLIC_URL || undefined }
  const problems: string[] = []
  if (!e.JWT_SECRET)
    problems.push(
      'JWT_SECRET: required outside demo mode (DATABASE_URL or PUBLIC_URL is set): at least 32 random characters, the same on every instance',
    )
  // the e2e suite's seams (an order that stays `sent`, a toast test page) never run for real shoppers
  if (env.E2E === '1') problems.push('E2E: the test suite setting E2E=1 is refused outside demo mode')
  if (!e.PUBLIC_URL) problems.push('PUBLIC_URL: required outside demo mode: the https origin shoppers use')
  else if (URL.canParse(e.PUBLIC_URL)) {
    const url = new URL(e.PUBLIC_URL)
    if (url.protocol !== 'https:' && !isLocalHost(url))
      problems.push(`PUBLIC_URL: must be https (plain http only for localhost), got ${url.origin}`)
  }
  return problems
}

/**
 * Reads the API configuration. In demo mode without JWT_SECRET a random secret is made once and
 * kept in `dataDir` so sessions survive restarts of a single demo instance.
 */
export function loadApiConfig(env: NodeJS.ProcessEnv, opts: { dataDir: string; port: number }): ApiConfig {
  const parsed = schema.safeParse(env)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`)
    throw new Error(`Invalid environment:\n${lines.join('\n')}`)
  }
  const e = parsed.data
  const demo = runMode(env) === 'demo'
  const problems = runModeProblems(env)
  if (problems.length) throw new Error(`Invalid environment:\n${problems.map((p) => `  ${p}`).join('\n')}`)
  const sandboxPayments = e.SANDBOX_PAYMENTS ?? demo
  // only a single demo instance gets here without one: it makes its own and keeps it in the data folder
  const jwtSecret = shopSecret(e.JWT_SECRET, opts.dataDir)
  return {
    jwtSecret,
    accessTtlSeconds: e.ACCESS_TOKEN_TTL,
    refreshTtlSeconds: e.REFRESH_TOKEN_TTL,
    refreshReuseGraceSeconds: e.REFRESH_REUSE_GRACE,
    catalogueCacheSeconds: e.CATALOGUE_CACHE_SECONDS,
    orderClock: {
      stockHoldMinutes: e.STOCK_HOLD_MINUTES,
      orderTtlHours: e.ORDER_TTL_HOURS,
      maxHeldCodes: e.STOCK_HOLD_MAX_CODES,
      maxHeldListings: e.STOCK_HOLD_MAX_LISTINGS,
    },
    clientIpv6Prefix: e.CLIENT_IPV6_PREFIX,
    deliveryRefundHours: e.DELIVERY_REFUND_HOURS,
    deliveryRefundWarnHours: e.DELIVERY_REFUND_WARN_HOURS,
    shopTimeZone: e.SHOP_TIMEZONE,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${opts.port}`).replace(/\/$/, ''),
    uploadDir: path.join(opts.dataDir, 'uploads'),
    maxJsonBytes: 64 * 1024,
    maxUploadBytes: 5 * 1024 * 1024,
    signIn: {
      perPair: e.SIGNIN_LIMIT_PER_PAIR,
      perAccount: e.SIGNIN_LIMIT_PER_ACCOUNT,
      perAddress: e.SIGNIN_LIMIT_PER_ADDRESS,
      slowdownMaxMs: e.SIGNIN_SLOWDOWN_MAX_MS,
      windowSeconds: e.SIGNIN_LIMIT_WINDOW,
    },
    promoLimits: {
      perAddress: e.PROMO_LIMIT_PER_ADDRESS,
      perTarget: e.PROMO_LIMIT_PER_TARGET,
      windowSeconds: e.PROMO_LIMIT_WINDOW,
    },
    uploadLimits: {
      perAddress: e.UPLOAD_LIMIT_PER_ADDRESS,
      perTarget: e.UPLOAD_LIMIT_PER_TARGET,
      windowSeconds: e.UPLOAD_LIMIT_WINDOW,
    },
    risk: {
      orderPerAddress: e.ORDER_LIMIT_PER_ADDRESS,
      orderPerEmail: e.ORDER_LIMIT_PER_EMAIL,
      paymentPerAddress: e.PAYMENT_LIMIT_PER_ADDRESS,
      paymentPerEmail: e.PAYMENT_LIMIT_PER_EMAIL,
      paidPerAddress: e.RISK_PAID_PER_ADDRESS,
      rulesOn:
        e.RISK_RULES === undefined
          ? null
          : e.RISK_RULES.split(',')
              .map((r) => r.trim())
              .filter(Boolean),
      cardKey: createHmac('sha256', jwtSecret).update('card-hash-v1').digest('hex'),
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
    atol:
      e.ATOL_LOGIN && e.ATOL_PASSWORD && e.ATOL_GROUP
        ? { login: e.ATOL_LOGIN, password: e.ATOL_PASSWORD, group: e.ATOL_GROUP, apiUrl: e.ATOL_API_URL }
        : null,
    getpay:
      e.GETPAY_WALLET_ID && e.GETPAY_SECRET
        ? { walletId: e.GETPAY_WALLET_ID, secret: e.GETPAY_SECRET, payUrl: e.GETPAY_PAY_URL ?? '' }
        : null,
    yookassa:
      e.YOOKASSA_SHOP_ID && e.YOOKASSA_SECRET_KEY
        ? {
            shopId: e.YOOKASSA_SHOP_ID,
            secretKey: e.YOOKASSA_SECRET_KEY,
            apiUrl: e.YOOKASSA_API_URL.replace(/\/$/, ''),
            notifyFrom: e.YOOKASSA_NOTIFY_FROM,
          }
        : null,
    moogold:
      e.MOOGOLD_PARTNER_ID && e.MOOGOLD_SECRET_KEY
        ? { partnerId: e.MOOGOLD_PARTNER_ID, secretKey: e.MOOGOLD_SECRET_KEY, apiUrl: e.MOOGOLD_API_URL }
        : null,
    social: socialFromEnv(env),
    telegram: e.TELEGRAM_BOT_TOKEN
      ? {
          token: e.TELEGRAM_BOT_TOKEN,
          apiUrl: e.TELEGRAM_API_URL.replace(/\/$/, ''),
          // a webhook needs a public https address; without one the bot asks for updates itself
          mode:
            e.TELEGRAM_MODE ??
            (e.PUBLIC_URL &&
            new URL(e.PUBLIC_URL).protocol === 'https:' &&
            !isLocalHost(new URL(e.PUBLIC_URL))
              ? 'webhook'
              : 'polling'),
          webhookSecret: createHmac('sha256', e.TELEGRAM_BOT_TOKEN)
            .update('telegram-webhook-v1')
            .digest('base64url'),
        }
      : null,
    socialRedirectOrigins: redirectOrigins(env, e.PUBLIC_URL ?? `http://localhost:${opts.port}`),
    sandboxPayments,
    demo,
    demoStrip: demo || sandboxPayments,
    contractWatchFile: demo && env.E2E === '1' ? path.join(opts.dataDir, CONTRACT_WATCH_FILE) : null,
    // ---- mail (SMTP_URL, MAIL_FROM, ORDER_LOOKUP_LIMIT_*): validated in services/mail/config.ts
    mail: mailConfigFromEnv(env, {
      dataDir: opts.dataDir,
      publicUrl: e.PUBLIC_URL ?? `http://localhost:${opts.port}`,
    }),
    adminEmails: e.ADMIN_EMAILS,
    adminWriteLimit: { perStaff: e.ADMIN_WRITE_LIMIT, windowSeconds: e.ADMIN_WRITE_WINDOW },
    playerCheck: {
      sandbox: e.PLAYER_CHECK_SANDBOX ?? sandboxPayments,
      smileone:
        e.SMILEONE_UID && e.SMILEONE_EMAIL && e.SMILEONE_KEY
          ? { uid: e.SMILEONE_UID, email: e.SMILEONE_EMAIL, key: e.SMILEONE_KEY, apiUrl: e.SMILEONE_API_URL }
          : null,
      apigames:
        e.APIGAMES_MERCHANT_ID && e.APIGAMES_SECRET_KEY
          ? {
              merchantId: e.APIGAMES_MERCHANT_ID,
              secretKey: e.APIGAMES_SECRET_KEY,
              apiUrl: e.APIGAMES_API_URL,
            }
          : null,
      timeoutMs: e.PLAYER_CHECK_TIMEOUT_MS,
      cacheSeconds: e.PLAYER_CHECK_CACHE_SECONDS,
      perAddress: e.PLAYER_CHECK_LIMIT_PER_ADDRESS,
    },
  }
}
