// The owner saves the shop's name, logo, support contacts, time zone, tagline and support hours
// (PUT /api/admin/shop/, issue 46: the workflow left the route): the checks, the save, the logo
// upload it replaced and the audit line, in one transaction.
import type { ApiDeps } from '../../context'
import { fieldError } from '../../lib/errors'
import { audit, changedFields } from '../admin/audit'
import type { StaffMember } from '../admin/roles'
import { dropShopLogoUpload, mediaName, uploadExists } from '../uploads/store'
import { getShopSettings, type ShopSettings, saveShopSettings } from './settings'
import { isTimeZone } from '../../../../shared/shop-time'

/** What the owner posts; absent `timeZone`, `tagline`, `supportHours`: left as they are. */
interface ShopSettingsInput {
  name: string
  logo: string
  supportEmail: string
  supportPhone: string
  timeZone?: string
  tagline?: string
  supportHours?: string
}

/** The settings as the API answers them; the audit line names changed fields the same way. */
export function shopView(s: ShopSettings) {
  return {
    name: s.name,
    logo: s.logo,
    support_email: s.supportEmail,
    support_phone: s.supportPhone,
    support_hours: s.supportHours,
    time_zone: s.timeZone,
    tagline: s.tagline,
  }
}

/** Saves the settings and returns them as saved. */
export async function updateShopSettings(
  deps: Pick<ApiDeps, 'db' | 'config'>,
  staff: StaffMember,
  input: ShopSettingsInput,
): Promise<ShopSettings> {
  // the shape is checked by the route; which zones exist is the runtime's list, so its own code
  if (input.timeZone !== undefined && !isTimeZone(input.timeZone))
    throw fieldError('time_zone', 'time_zone_unknown', { time_zone: input.timeZone })
  const { db, config } = deps
  return db.transaction(async (tx) => {
    const before = await getShopSettings(tx, config)
    // a form opened before the last upload posts the old /media/ address, whose file is gone:
    // saving it would leave a broken logo and drop the new one (as «replaced»)
    const media = mediaName(input.logo)
    if (input.logo !== before.logo && media && !(await uploadExists(tx, media)))
      throw fieldError('logo', 'shop_logo_gone')
    await saveShopSettings(tx, {
      name: input.name,
      logo: input.logo,
      supportEmail: input.supportEmail,
      supportPhone: input.supportPhone,
      // the start-up's zone is followed, not copied: changing SHOP_TIMEZONE later still applies
      timeZone:
        input.timeZone === undefined
          ? undefined
          : input.timeZone === config.shopTimeZone
            ? null
            : input.timeZone,
      tagline: input.tagline,
      supportHours: input.supportHours,
    })
    const after = await getShopSettings(tx, config)
    // the shop's uploaded logo replaced by another address: its upload goes (as a game's does)
    if (before.logo !== after.logo) await dropShopLogoUpload(tx, after.logo)
    const diff = changedFields(shopView(before), shopView(after))
    if (diff.changed) await audit(tx, staff, { action: 'shop.update', entity: 'shop', entityId: 1, ...diff })
    return after
  })
}
