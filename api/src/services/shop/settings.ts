// The shop's own name, logo and support contacts (issue 37), edited by the owner (single row,
// id = 1). Until the owner saves them the demo shows «ИгроМаркет» and a production shop a neutral
// «Магазин» with a warning on the overview: the demo's name is never a real shop's by accident.
import { eq } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { shopSettings } from '../../db/schema'
import { M } from '../mail/messages'

export interface ShopSettings {
  name: string
  logo: string
  supportEmail: string
  supportPhone: string
  /** False until the owner saves the settings once. */
  saved: boolean
}

/** The production default before the owner names the shop. */
const UNNAMED = 'Магазин'

export async function getShopSettings(db: Db | Tx, opts: { demo: boolean }): Promise<ShopSettings> {
  const [row] = await db.select().from(shopSettings).where(eq(shopSettings.id, 1)).limit(1)
  if (!row)
    return { name: opts.demo ? M.shop : UNNAMED, logo: '', supportEmail: '', supportPhone: '', saved: false }
  return {
    name: row.name,
    logo: row.logo,
    supportEmail: row.supportEmail,
    supportPhone: row.supportPhone,
    saved: true,
  }
}

export async function saveShopSettings(db: Db | Tx, s: Omit<ShopSettings, 'saved'>): Promise<void> {
  const values = { name: s.name, logo: s.logo, supportEmail: s.supportEmail, supportPhone: s.supportPhone }
  await db
    .insert(shopSettings)
    .values({ id: 1, ...values })
    .onConflictDoUpdate({ target: shopSettings.id, set: { ...values, updated: new Date() } })
}
