// npm run db:seed — seeds the demo shop into DATABASE_URL or the embedded database in DATA_DIR.
import path from 'node:path'
import { openDatabase } from '#api/db/client'
import { seedIfEmpty } from '#api/demo/seed'

const dataDir = path.resolve(process.env.DATA_DIR || './data')
const database = await openDatabase({
  url: process.env.DATABASE_URL || undefined,
  dataDir: `${dataDir}/pglite`,
})
const seeded = await seedIfEmpty(database.db)
console.log(seeded ? 'Seeded the demo shop.' : 'The database already has a catalogue; nothing to do.')
await database.close()
