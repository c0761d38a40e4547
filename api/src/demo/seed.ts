import { count, sql } from 'drizzle-orm'
import type { Db } from '../db/types'
import { games } from '../db/schema'
import { type DemoSeedOptions, seedDemoData } from './seed-data'

/** Instances started together seed one at a time: the second finds the catalogue and leaves it. */
const SEED_LOCK_KEY = 7_419_020

/** Seeds the demo shop when the catalogue is empty; true when it did. Safe to run concurrently. */
export async function seedIfEmpty(db: Db, opts: DemoSeedOptions = {}): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK_KEY})`)
    const [row] = await tx.select({ n: count() }).from(games)
    if ((row?.n ?? 0) > 0) return false
    await seedDemoData(tx as unknown as Db, opts)
    return true
  })
}
