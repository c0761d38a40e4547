import { serve } from '@hono/node-server'
import { openDatabase } from '#api/db/client'
import { seedIfEmpty } from '#api/db/seed'
import { createShopServer } from './create-server'
import { loadServerEnv } from './env'

async function main() {
  const started = performance.now()
  let env: ReturnType<typeof loadServerEnv>
  try {
    env = loadServerEnv(process.env)
  } catch (e) {
    console.error((e as Error).message)
    process.exit(1)
  }
  const usesDb = !env.API_URL
  const database = usesDb
    ? await openDatabase({
        url: env.DATABASE_URL,
        dataDir: env.DATABASE_URL ? undefined : `${env.dataDir}/pglite`,
      })
    : null
  if (database && env.SEED_DEMO === '1') {
    const seeded = await seedIfEmpty(database.db)
    if (seeded) console.log('Seeded the demo catalogue.')
  }
  let shop: Awaited<ReturnType<typeof createShopServer>>
  try {
    shop = await createShopServer(env, database)
  } catch (e) {
    console.error((e as Error).message)
    process.exit(1)
  }
  const server = serve({ fetch: shop.fetch, port: env.PORT, hostname: env.HOST }, (info) => {
    const where = database
      ? database.kind === 'postgres'
        ? 'PostgreSQL'
        : `PGlite in ${env.dataDir}`
      : `API at ${env.API_URL}`
    console.log(
      `Shop ready at http://localhost:${info.port}/ (${where}, ${Math.round(performance.now() - started)} ms)`,
    )
  })
  const stop = () => {
    server.close()
    void database?.close().finally(() => process.exit(0))
    if (!database) process.exit(0)
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

void main()
