// npm run db:seed — seeds the demo shop into DATABASE_URL or the embedded database in DATA_DIR.
import './load-env.mjs' // first: .env / ENV_FILE before anything reads the environment
import path from 'node:path'
import { openDatabase } from '#api/db/client'
import { seedIfEmpty } from '#api/demo/seed'
import { runMode } from '#api/env'

const dataDir = path.resolve(process.env.DATA_DIR || './data')
const database = await openDatabase({
  url: process.env.DATABASE_URL || undefined,
  dataDir: `${dataDir}/pglite`,
})
// the demo staff accounts (public passwords) only in demo mode (issue 42)
const staff = runMode(process.env) === 'demo'
const seeded = await seedIfEmpty(database.db, { staff })
console.log(
  seeded
    ? `Seeded the demo shop${staff ? ' and its staff accounts' : ' (catalogue only: production never gets the demo staff accounts)'}.`
    : 'The database already has a catalogue; nothing to do.',
)
await database.close()
