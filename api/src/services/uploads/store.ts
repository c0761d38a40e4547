// Uploaded images live in the database (docs/decisions/036): every instance serves them, backups
// include them, and each row goes with its owner. One avatar per order and one per account, one
// logo per game, per gift and for the shop: a new upload replaces the owner's row (the unique indexes make a
// second one impossible).
import { createHash, randomBytes } from 'node:crypto'
import { and, eq, ne } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { uploads } from '../../db/schema'
import type { CleanImage } from './images'

/** `/media/<name>`: the only kind of name we hand out (32 random hex digits and the format). */
export const MEDIA_NAME = /^[0-9a-f]{32}\.(png|jpg|gif|webp)$/
export const MEDIA_PREFIX = '/media/'

/** An order's or an account's avatar, a game's or a gift's logo, a payment method's icon, the shop's logo. */
export type UploadOwner =
  | { orderId: string }
  | { userId: number }
  | { gameId: number }
  | { giftId: number }
  | { paymentMethodId: number }
  | { shop: true }

const ownerColumn = (owner: UploadOwner) =>
  'orderId' in owner
    ? eq(uploads.orderId, owner.orderId)
    : 'userId' in owner
      ? eq(uploads.userId, owner.userId)
      : 'gameId' in owner
        ? eq(uploads.gameId, owner.gameId)
        : 'giftId' in owner
          ? eq(uploads.giftId, owner.giftId)
          : 'shop' in owner
            ? eq(uploads.shop, true)
            : eq(uploads.paymentMethodId, owner.paymentMethodId)

const newName = (ext: string) => `${randomBytes(16).toString('hex')}.${ext}`

/** The stored name of a public path `/media/<name>` (or of a bare name), null for anything else. */
export function mediaName(pathOrName: string | null | undefined): string | null {
  if (!pathOrName) return null
  const name = pathOrName.startsWith(MEDIA_PREFIX) ? pathOrName.slice(MEDIA_PREFIX.length) : pathOrName
  return MEDIA_NAME.test(name) ? name : null
}

/**
 * Stores `image` as the owner's one upload, deleting the one it replaces; returns its name (a new
 * random one unless `name` is given: the import of files stored before keeps their links).
 */
export async function replaceUpload(
  tx: Tx,
  owner: UploadOwner,
  image: CleanImage,
  name = newName(image.kind),
): Promise<string> {
  await tx.delete(uploads).where(ownerColumn(owner))
  await tx.insert(uploads).values({
    name,
    ...owner,
    contentType: image.contentType,
    bytes: image.bytes,
    size: image.bytes.length,
    sha256: createHash('sha256').update(image.bytes).digest('hex'),
  })
  return name
}

/**
 * Copies the upload `source` (an earlier order's avatar) to `owner` as its one upload, under a new
 * name, so that replacing or deleting either never takes the other's image. Null when `source`
 * is not stored.
 */
export async function copyUpload(tx: Tx, source: string, owner: UploadOwner): Promise<string | null> {
  const [from] = await tx.select().from(uploads).where(eq(uploads.name, source))
  if (!from) return null
  await tx.delete(uploads).where(ownerColumn(owner))
  const name = newName(source.split('.').pop() ?? 'png')
  await tx.insert(uploads).values({
    ...from,
    name,
    orderId: null,
    userId: null,
    gameId: null,
    giftId: null,
    paymentMethodId: null,
    shop: null,
    ...owner,
    created: new Date(),
  })
  return name
}

/** Deletes the owner's upload, if any. */
export async function deleteUploadOf(tx: Tx | Db, owner: UploadOwner): Promise<void> {
  await tx.delete(uploads).where(ownerColumn(owner))
}

/** Deletes the shop's uploaded logo unless `logo` (the settings' logo now) is its address. */
/** Whether a stored upload answers at `/media/<name>`. */
export async function uploadExists(db: Db | Tx, name: string): Promise<boolean> {
  const [row] = await db.select({ name: uploads.name }).from(uploads).where(eq(uploads.name, name)).limit(1)
  return row !== undefined
}

export async function dropShopLogoUpload(tx: Tx, logo: string): Promise<void> {
  const keep = mediaName(logo)
  await tx
    .delete(uploads)
    .where(keep ? and(eq(uploads.shop, true), ne(uploads.name, keep)) : eq(uploads.shop, true))
}

export interface StoredUpload {
  contentType: string
  bytes: Buffer
  size: number
  sha256: string
}

/** One stored upload by its public name, or null. */
export async function readUpload(db: Db, name: string): Promise<StoredUpload | null> {
  const [row] = await db
    .select({
      contentType: uploads.contentType,
      bytes: uploads.bytes,
      size: uploads.size,
      sha256: uploads.sha256,
    })
    .from(uploads)
    .where(eq(uploads.name, name))
  return row ?? null
}
