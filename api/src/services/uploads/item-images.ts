// A game's or gift's logo, a payment method's icon and the shop's logo, stored from the back-office:
// the cleaned image replaces the item's previous upload and the item's `logo`/`icon` becomes its
// /media/ address, in one transaction, audited before and after.
import { eq } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { games, gifts, paymentMethods } from '../../db/schema'
import { refuse } from '../../lib/domain-error'
import { audit } from '../admin/audit'
import type { StaffMember } from '../admin/roles'
import { setShopLogo } from '../shop/settings'
import type { CleanImage } from './images'
import { MEDIA_PREFIX, replaceUpload, type UploadOwner } from './store'

export const MAX_LOGO_BYTES = 2 * 1024 * 1024
/** A method's icon is drawn at 32 px: 256 KB is plenty. */
export const MAX_ICON_BYTES = 256 * 1024

type Target = {
  entity: 'game' | 'gift' | 'payment_method'
  field: 'logo' | 'icon'
  maxBytes: number
  table: typeof games | typeof gifts | typeof paymentMethods
  owner: (id: number) => UploadOwner
}

/** The items an image belongs to: the form field it is posted in, its size limit, its row. */
export const IMAGE_TARGETS = {
  game: {
    entity: 'game',
    field: 'logo',
    maxBytes: MAX_LOGO_BYTES,
    table: games,
    owner: (id) => ({ gameId: id }),
  },
  gift: {
    entity: 'gift',
    field: 'logo',
    maxBytes: MAX_LOGO_BYTES,
    table: gifts,
    owner: (id) => ({ giftId: id }),
  },
  method: {
    entity: 'payment_method',
    field: 'icon',
    maxBytes: MAX_ICON_BYTES,
    table: paymentMethods,
    owner: (id) => ({ paymentMethodId: id }),
  },
} satisfies Record<string, Target>

export type ImageTarget = keyof typeof IMAGE_TARGETS

/** Stores the item's image; returns its /media/ address (404 when there is no such item). */
export async function storeItemImage(
  db: Db,
  staff: StaffMember,
  what: ImageTarget,
  id: number,
  image: CleanImage,
): Promise<string> {
  const target: Target = IMAGE_TARGETS[what]
  // biome-ignore lint/suspicious/noExplicitAny: the three tables share `id` and an image column
  const t = target.table as any
  const column = target.field === 'icon' ? paymentMethods.icon : (target.table as typeof games).logo
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ [target.field]: column })
      .from(t)
      .where(eq(t.id, id))
      .for('update')
    if (!row) throw refuse('not_found')
    const name = await replaceUpload(tx, target.owner(id), image)
    const path = `${MEDIA_PREFIX}${name}`
    await tx
      .update(t)
      .set({ [target.field]: path })
      .where(eq(t.id, id))
    await audit(tx, staff, {
      action: `${target.entity}.${target.field}`,
      entity: target.entity,
      entityId: id,
      before: row,
      after: { [target.field]: path },
    })
    return path
  })
}

/** The shop's logo: its one upload, and the settings' `logo` pointed at it (409 until the shop is saved). */
export async function storeShopLogo(db: Db, staff: StaffMember, image: CleanImage): Promise<string> {
  return db.transaction(async (tx) => {
    const name = await replaceUpload(tx, { shop: true }, image)
    const path = `${MEDIA_PREFIX}${name}`
    const replaced = await setShopLogo(tx, path)
    // the transaction rolls back: the upload is not kept either
    if (!replaced) throw refuse('shop_not_saved')
    await audit(tx, staff, {
      action: 'shop.logo',
      entity: 'shop',
      entityId: 1,
      before: { logo: replaced.before },
      after: { logo: path },
    })
    return path
  })
}
