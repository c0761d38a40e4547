import path from 'node:path'
import { z } from 'zod'
import { runMode, runModeProblems } from '#api/env'
import { parseTrustProxy, type TrustedPeers } from './client-address'
import type { PgSettings } from '#api/db/client'
import { DEFAULT_DATA_DIR } from '../shared/shop-secret'

/** A duration in milliseconds (0 allowed: "off" where the setting says so). */
function ms(fallback: number) {
  return z.coerce.number().int().min(0).max(3_600_000).default(fallback)
}

/** Where the database is and how its pool meets faults (also all `npm run db:migrate` reads). */
const databaseSettings = {
  DATA_DIR: z.string().default(DEFAULT_DATA_DIR),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must start with postgres:// or postgresql://')
    .optional(),
  DB_POOL_MAX: z.coerce.number().int().min(1).max(500).default(10),
  DB_CONNECT_TIMEOUT_MS: ms(5000),
  DB_STATEMENT_TIMEOUT_MS: ms(15_000),
  DB_QUERY_TIMEOUT_MS: ms(20_000),
  DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: ms(30_000),
  DB_KEEPALIVE_MS: ms(10_000),
  DB_STARTUP_WAIT_MS: ms(60_000),
}
const databaseSchema = z.object(databaseSettings)
export type DatabaseEnv = z.infer<typeof databaseSchema> & { dataDir: string }

/** Process-level settings of the shop server, validated once at start-up. */
const schema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  ...databaseSettings,
  API_URL: z.url('API_URL must be an absolute http(s) URL').optional(),
  SHOP_ROLE: z.enum(['all', 'api', 'storefront']).default('all'),
  /** Seed the demo catalogue into an empty database: on in demo mode, off in production unless 1. */
  SEED_DEMO: z.enum(['0', '1']).optional(),
  /** Codes per PUBG product and per gift in the demo seed (defaults 30 and 20). */
  DEMO_STOCK: z.coerce.number().int().min(0).max(10_000).optional(),
  /** Proxies in front (addresses or CIDRs, comma-separated) whose X-Forwarded-For is believed. */
  TRUST_PROXY: z.string().default(''),
  /** Prometheus metrics on their own port (off when unset). */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** Where the metrics listener binds: the loopback unless an operator opens it on purpose. */
  METRICS_HOST: z.string().default('127.0.0.1'),
  // process layer (docs/operations.md): workers, draining, database faults
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
  SHUTDOWN_DELAY_MS: ms(3000),
  SHUTDOWN_TIMEOUT_MS: ms(10_000),
  /** How long an idle client connection stays open (Node's own 5 s is shorter than a balancer's). */
  KEEPALIVE_TIMEOUT_MS: ms(65_000),
})

/** The process settings' schema, for the settings documentation test. */
export const serverSettingsSchema = schema

export type ServerEnv = Omit<z.infer<typeof schema>, 'TRUST_PROXY'> & {
  dataDir: string
  seedDemo: boolean
  trustProxy: TrustedPeers
}

/** The PostgreSQL pool settings of `openDatabase`, from the environment. */
export function pgSettings(env: DatabaseEnv): PgSettings {
  return {
    poolMax: env.DB_POOL_MAX,
    connectTimeoutMs: env.DB_CONNECT_TIMEOUT_MS,
    statementTimeoutMs: env.DB_STATEMENT_TIMEOUT_MS,
    queryTimeoutMs: env.DB_QUERY_TIMEOUT_MS,
    idleInTransactionTimeoutMs: env.DB_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    keepAliveMs: env.DB_KEEPALIVE_MS,
    startupWaitMs: env.DB_STARTUP_WAIT_MS,
  }
}

/** Only the database settings: a migration needs no JWT_SECRET or PUBLIC_URL. */
export function loadDatabaseEnv(env: Record<string, string | undefined>): DatabaseEnv {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''))
  const parsed = databaseSchema.safeParse(cleaned)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`)
    throw new Error(`Invalid environment:\n${lines.join('\n')}`)
  }
  return { ...parsed.data, dataDir: path.resolve(parsed.data.DATA_DIR) }
}

export function loadServerEnv(env: Record<string, string | undefined>): ServerEnv {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''))
  const parsed = schema.safeParse(cleaned)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`)
    throw new Error(`Invalid environment:\n${lines.join('\n')}`)
  }
  if (parsed.data.SHOP_ROLE === 'storefront' && !parsed.data.API_URL) {
    throw new Error('Invalid environment:\n  API_URL: required when SHOP_ROLE=storefront')
  }
  const unsafe = runModeProblems(cleaned)
  if (unsafe.length) throw new Error(`Invalid environment:\n${unsafe.map((p) => `  ${p}`).join('\n')}`)
  const { TRUST_PROXY, ...rest } = parsed.data
  let trustProxy: TrustedPeers
  try {
    trustProxy = parseTrustProxy(TRUST_PROXY)
  } catch (e) {
    throw new Error(`Invalid environment:\n  TRUST_PROXY: ${(e as Error).message}`)
  }
  const seedDemo = rest.SEED_DEMO ? rest.SEED_DEMO === '1' : runMode(cleaned) === 'demo'
  return { ...rest, dataDir: path.resolve(rest.DATA_DIR), seedDemo, trustProxy }
}
