// The single-row settings of the Standoff and Steam kinds, as the back-office edits them (issue
// 31): the readers take the first row (`order by id limit 1`), so saving updates that row or makes
// it. Saving the Steam row is what makes a Steam game sellable.
import { asc, eq } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { standoffSettings, steamSettings } from '../../db/schema'

export type StandoffSettingsIn = Omit<typeof standoffSettings.$inferInsert, 'id'>
export type SteamSettingsIn = Omit<typeof steamSettings.$inferInsert, 'id'>

export async function readStandoffSettings(db: Db | Tx) {
  const [s] = await db.select().from(standoffSettings).orderBy(asc(standoffSettings.id)).limit(1)
  return s ?? null
}

export async function readSteamSettings(db: Db | Tx) {
  const [s] = await db.select().from(steamSettings).orderBy(asc(steamSettings.id)).limit(1)
  return s ?? null
}

export async function saveStandoffSettings(tx: Tx, v: StandoffSettingsIn) {
  const row = await readStandoffSettings(tx)
  if (row) await tx.update(standoffSettings).set(v).where(eq(standoffSettings.id, row.id))
  else await tx.insert(standoffSettings).values({ id: 1, ...v })
  return (await readStandoffSettings(tx))!
}

export async function saveSteamSettings(tx: Tx, v: SteamSettingsIn) {
  const row = await readSteamSettings(tx)
  if (row) await tx.update(steamSettings).set(v).where(eq(steamSettings.id, row.id))
  else await tx.insert(steamSettings).values({ id: 1, ...v })
  return (await readSteamSettings(tx))!
}
