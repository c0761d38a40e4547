import { count } from 'drizzle-orm'
import type { Db } from './client'
import { games } from './schema'
import { seedDemoData } from './seed-data'

/** Seeds the demo shop when the catalogue is empty; true when it did. */
export async function seedIfEmpty(db: Db): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(games)
  if ((row?.n ?? 0) > 0) return false
  await seedDemoData(db)
  return true
}
