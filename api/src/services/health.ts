// The health check's look at the database (GET /api/health/).
import { sql } from 'drizzle-orm'
import type { Db } from '../db/client'

/** Whether the database answers a trivial query; false on an error, never throws. */
export function databaseAnswers(db: Db): Promise<boolean> {
  return db.execute(sql`select 1`).then(
    () => true,
    () => false,
  )
}
