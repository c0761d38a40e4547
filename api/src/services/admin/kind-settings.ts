// The single-row settings of the Standoff and Steam kinds, as the back-office edits them (issue
// 31): the readers take the first row (`order by id limit 1`), so saving updates that row or makes
// it. Saving the Steam row is what makes a Steam game sellable. Every change is audited with the
// fields that differ, as the back-office shows them.
import { asc, eq } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { standoffSettings, steamSettings } from '../../db/schema'
import { refuse } from '../../lib/domain-error'
import { toMoney } from '../../lib/money'
import { audit, changedFields } from './audit'
import type { StaffMember } from './roles'

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

async function saveStandoffSettings(tx: Tx, v: StandoffSettingsIn) {
  const row = await readStandoffSettings(tx)
  if (row) await tx.update(standoffSettings).set(v).where(eq(standoffSettings.id, row.id))
  else await tx.insert(standoffSettings).values({ id: 1, ...v })
  return (await readStandoffSettings(tx))!
}

async function saveSteamSettings(tx: Tx, v: SteamSettingsIn) {
  const row = await readSteamSettings(tx)
  if (row) await tx.update(steamSettings).set(v).where(eq(steamSettings.id, row.id))
  else await tx.insert(steamSettings).values({ id: 1, ...v })
  return (await readSteamSettings(tx))!
}

type StandoffRow = Awaited<ReturnType<typeof readStandoffSettings>>
type SteamRow = Awaited<ReturnType<typeof readSteamSettings>>

/** The Standoff settings as the back-office shows them (defaults when never saved). */
export const standoffView = (s: StandoffRow) => ({
  skin_name: s?.skinName ?? '',
  skin_picture: s?.skinPicture ?? '',
  market_fee_bp: s?.marketFee ?? 1000,
  is_surplus_enabled: s?.isSurplusEnabled ?? true,
  need_refund: s?.needRefund ?? false,
  configured: s !== null,
})

/** The Steam settings as the back-office shows them (defaults when never saved). */
export const steamView = (s: SteamRow) => ({
  commission_bp: s?.commission ?? 0,
  currency: s?.currency ?? 'RUB',
  min_amount: toMoney(s?.minAmount ?? 10000),
  max_amount: toMoney(s?.maxAmount ?? 1500000),
  configured: s !== null,
})

/** Saves the Standoff settings; returns them as shown. */
export async function updateStandoffSettings(db: Db, staff: StaffMember, v: StandoffSettingsIn) {
  return db.transaction(async (tx) => {
    const before = standoffView(await readStandoffSettings(tx))
    const row = await saveStandoffSettings(tx, v)
    const after = standoffView(row)
    const diff = changedFields(before, after)
    if (diff.changed)
      await audit(tx, staff, { action: 'settings.standoff', entity: 'settings', entityId: row.id, ...diff })
    return after
  })
}

/** Saves the Steam settings (a positive minimum, a maximum not below it); returns them as shown. */
export async function updateSteamSettings(db: Db, staff: StaffMember, v: SteamSettingsIn) {
  if (v.minAmount <= 0 || v.maxAmount < v.minAmount) throw refuse('steam_settings_bounds')
  return db.transaction(async (tx) => {
    const before = steamView(await readSteamSettings(tx))
    const row = await saveSteamSettings(tx, v)
    const after = steamView(row)
    const diff = changedFields(before, after)
    if (diff.changed)
      await audit(tx, staff, { action: 'settings.steam', entity: 'settings', entityId: row.id, ...diff })
    return after
  })
}
