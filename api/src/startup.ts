// The API's start-up tasks, in the order a shop process runs them (server/main.ts keeps the
// process: env, listen, metrics, drain). Each step logs what it did; none of them ends the process.
import path from 'node:path'
import type { ApiDeps } from './context'
import type { Database, Db } from './db/client'
import { JOB_HANDLERS, RECURRING_JOBS } from './jobs/handlers'
import { createJobWorker, type JobWorkerOptions } from './jobs/worker'
import { log } from './lib/log'
import { DEMO_STAFF_EMAILS, disableDemoStaff } from './services/admin/demo-staff'
import { retireSandboxSuppliers } from './services/delivery/suppliers'
import { ensureYookassaMethods } from './services/payments/yookassa-setup'
import { importLegacyUploads } from './services/uploads/legacy-import'

/** What the demo seed makes, for the start-up log. */
const SEEDED_CATALOGUE = 'games, products and codes, gifts, payment methods, articles, settings, promo codes'

/**
 * The seeder openDatabase runs on an empty database (SEED_DEMO), or undefined. Loaded only when
 * seeding: a production worker never reads the demo seeder. The demo staff accounts (public
 * passwords) only in demo mode (issue 42), and so are the demo's legal texts and contacts (issue 47).
 */
export function demoSeeder(opts: { seedDemo: boolean; stockPerItem?: number; demoMode: boolean }) {
  if (!opts.seedDemo) return undefined
  return async (db: Db) =>
    (await import('./demo/seed')).seedIfEmpty(db, {
      stockPerItem: opts.stockPerItem,
      staff: opts.demoMode,
      texts: opts.demoMode,
    })
}

/** Once the database is open: the seed's log line, no demo staff outside demo mode, old uploads in. */
export async function prepareDatabase(database: Database, opts: { demoMode: boolean; dataDir: string }) {
  const { demoMode } = opts
  if (database.seeded)
    log.info(
      // the accounts by count, not address: the log holds no email (their sign-ins are in the README)
      { seeded: SEEDED_CATALOGUE, staffAccounts: demoMode ? DEMO_STAFF_EMAILS.length : 0 },
      demoMode
        ? `Seeded the demo catalogue (${SEEDED_CATALOGUE}) and the ${DEMO_STAFF_EMAILS.length} demo staff accounts (owner and support, README «Demo»).`
        : `Seeded the demo catalogue (${SEEDED_CATALOGUE}); no staff accounts: production (SEED_DEMO=1) never creates the demo's.`,
    )
  // a demo staff account left from an earlier demo is a public password to the back-office
  if (!demoMode) await disableDemoStaff(database.db)
  await importOldUploads(database, opts.dataDir)
}

/** Once the API exists: the SMTP warning, YooKassa's methods, no sandbox supplier in production. */
export async function prepareApi(deps: ApiDeps) {
  const { config } = deps
  if (!config.demo && !config.mail.smtp) {
    // production without SMTP starts, but loudly: this line and the overview banner (decision 062)
    log.warn(
      { dir: config.mail.dir },
      'SMTP_URL is not set: every mail (order codes included) is written to files on this server and nobody receives it; set SMTP_URL and MAIL_FROM',
    )
  }
  // With YooKassa's keys set its methods exist (switched off) for the owner to turn on
  if (config.yookassa) {
    const made = await ensureYookassaMethods(deps.db).catch((err: unknown) => {
      log.error({ err }, 'could not create the YooKassa payment methods')
      return []
    })
    if (made.length)
      console.log(
        `Created the YooKassa payment methods ${made.join(', ')} (off until the owner turns them on).`,
      )
  }
  // No pretend delivery outside sandbox payments: `sandbox` games go to a person (decision 042).
  const moved = await retireSandboxSuppliers(deps.db, config)
  if (moved.length)
    log.warn(
      { games: moved.map((g) => `${g.id} ${g.title}`) },
      'games whose supplier was sandbox are now delivered by a person (manual): sandbox payments are off',
    )
}

/** The job worker with every handler and recurring job of the API (not started). */
export function createApiJobWorker(deps: ApiDeps, opts: Pick<JobWorkerOptions, 'concurrency' | 'onError'>) {
  return createJobWorker(deps, { handlers: JOB_HANDLERS, recurring: RECURRING_JOBS, ...opts })
}

/** Uploads an older version kept under DATA_DIR/uploads move into the database, once (decision 036). */
async function importOldUploads(database: Database, dataDir: string) {
  try {
    const done = await importLegacyUploads(database.db, path.join(dataDir, 'uploads'))
    if (done) log.info(done, 'imported the uploads folder into the database')
  } catch (err) {
    // the shop runs without them (their links answer 404); the next start tries again
    log.error({ err }, 'could not import the uploads folder')
  }
}
