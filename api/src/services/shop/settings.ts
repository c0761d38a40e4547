// The shop's own name, logo and support contacts (issue 37), edited by the owner (single row,
// id = 1). Until the owner saves them the demo shows «ИгроМаркет» and a production shop a neutral
// «Магазин» with a warning on the overview: the demo's name is never a real shop's by accident.
import { eq } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { shopSettings } from '../../db/schema'
import { M } from '../mail/messages'
import { DEFAULT_SHOP_TIMEZONE } from '../../../../shared/shop-time'

export interface ShopSettings {
  name: string
  logo: string
  supportEmail: string
  supportPhone: string
  /** When support answers, the owner's free text (issue 50); '' when not said. */
  supportHours: string
  /** The IANA zone every time is shown and taken in: the owner's choice, else SHOP_TIMEZONE. */
  timeZone: string
  /** The line under the name in the footer and the mails (issue 47); '' for the built-in one. */
  tagline: string
  /** False until the owner saves the settings once. */
  saved: boolean
}

/** The production default before the owner names the shop. */
const UNNAMED = 'Магазин'

export async function getShopSettings(
  db: Db | Tx,
  opts: { demo: boolean; shopTimeZone?: string },
): Promise<ShopSettings> {
  const [row] = await db.select().from(shopSettings).where(eq(shopSettings.id, 1)).limit(1)
  if (!row)
    return {
      name: opts.demo ? M.shop : UNNAMED,
      logo: '',
      supportEmail: '',
      supportPhone: '',
      supportHours: '',
      timeZone: opts.shopTimeZone ?? DEFAULT_SHOP_TIMEZONE,
      tagline: '',
      saved: false,
    }
  return {
    name: row.name,
    logo: row.logo,
    supportEmail: row.supportEmail,
    supportPhone: row.supportPhone,
    supportHours: row.supportHours,
    timeZone: row.timeZone ?? opts.shopTimeZone ?? DEFAULT_SHOP_TIMEZONE,
    tagline: row.tagline,
    saved: true,
  }
}

/** The shop's time zone alone (mails, exports, the back-office's day filters). */
export async function shopTimeZone(db: Db | Tx, opts: { shopTimeZone: string }): Promise<string> {
  const [row] = await db
    .select({ zone: shopSettings.timeZone })
    .from(shopSettings)
    .where(eq(shopSettings.id, 1))
    .limit(1)
  return row?.zone ?? opts.shopTimeZone
}

/**
 * Saves the settings. `timeZone`: a zone to keep, null to follow SHOP_TIMEZONE, absent to leave
 * it as it is; `tagline` and `supportHours` absent: left as they are.
 */
export async function saveShopSettings(
  db: Db | Tx,
  s: Omit<ShopSettings, 'saved' | 'timeZone' | 'tagline' | 'supportHours'> & {
    timeZone?: string | null
    tagline?: string
    supportHours?: string
  },
): Promise<void> {
  const values = {
    name: s.name,
    logo: s.logo,
    supportEmail: s.supportEmail,
    supportPhone: s.supportPhone,
    ...(s.timeZone === undefined ? {} : { timeZone: s.timeZone }),
    ...(s.tagline === undefined ? {} : { tagline: s.tagline }),
    ...(s.supportHours === undefined ? {} : { supportHours: s.supportHours }),
  }
  await db
    .insert(shopSettings)
    .values({ id: 1, ...values })
    .onConflictDoUpdate({ target: shopSettings.id, set: { ...values, updated: new Date() } })
}

/**
 * Points the saved settings' logo at `logo` (an upload's /media/ address) and returns the logo it
 * replaced; null when the owner has not saved the settings yet (an upload then asks for the
 * shop's name first: saving a row would mark a nameless shop as named).
 */
export async function setShopLogo(tx: Tx, logo: string): Promise<{ before: string } | null> {
  const [row] = await tx
    .select({ logo: shopSettings.logo })
    .from(shopSettings)
    .where(eq(shopSettings.id, 1))
    .for('update')
  if (!row) return null
  await tx.update(shopSettings).set({ logo, updated: new Date() }).where(eq(shopSettings.id, 1))
  return { before: row.logo }
}
