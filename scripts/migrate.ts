// npm run db:migrate — applies the migrations to DATABASE_URL (or the embedded database in DATA_DIR)
// and exits, without starting the shop: for deploy pipelines, before the new version starts.
// On PostgreSQL it takes the same advisory lock as start-up, so it may run beside live instances.
import './load-env.mjs' // first: .env / ENV_FILE before anything reads the environment
import { openDatabase } from '#api/db/client'
import { loadDatabaseEnv, pgSettings } from '../server/env'

const started = Date.now()
try {
  const env = loadDatabaseEnv(process.env)
  const database = await openDatabase({
    url: env.DATABASE_URL,
    dataDir: env.DATABASE_URL ? undefined : `${env.dataDir}/pglite`,
    pg: pgSettings(env),
  })
  await database.close()
  const where = env.DATABASE_URL ? 'PostgreSQL' : `PGlite in ${env.dataDir}`
  console.log(`Migrations applied to ${where} (${Date.now() - started} ms).`)
} catch (e) {
  console.error(`Migration failed: ${(e as Error).message}`)
  process.exitCode = 1
}
