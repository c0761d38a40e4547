// Before uploads moved into the database (docs/decisions/036) they were files under
// DATA_DIR/uploads of whichever instance took them. At start-up each instance imports its own
// folder once: every file an order or an account still points at becomes that owner's row (a file
// two orders shared, from «avatar of an earlier order», becomes one copy per order), stripped of
// metadata like a new upload; files nobody points at (replaced avatars) are left out. The folder
// is then renamed to `uploads.imported`, kept for the operator to delete.
import { existsSync } from 'node:fs'
import { readdir, readFile, rename } from 'node:fs/promises'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { orders, uploads, users } from '../../db/schema'
import { cleanImage } from './images'
import { MEDIA_NAME, MEDIA_PREFIX, replaceUpload } from './store'

export interface LegacyImportResult {
  imported: number
  skipped: number
}

/** Imports `dir` (DATA_DIR/uploads) once; null when there is no such folder (nothing to do). */
export async function importLegacyUploads(db: Db, dir: string): Promise<LegacyImportResult | null> {
  if (!existsSync(dir)) return null
  const result: LegacyImportResult = { imported: 0, skipped: 0 }
  for (const name of await readdir(dir)) {
    if (!MEDIA_NAME.test(name)) {
      result.skipped++
      continue
    }
    // another worker of the same DATA_DIR may be importing too: a file or row it took is skipped
    const file = await readFile(path.join(dir, name)).catch(() => null)
    const image = file && cleanImage(file)
    const owners = [
      ...(
        await db
          .select({ id: orders.id })
          .from(orders)
          .where(eq(orders.gameAvatar, MEDIA_PREFIX + name))
      ).map((o) => ({ orderId: o.id })),
      ...(await db.select({ id: users.id }).from(users).where(eq(users.avatarImg, name))).map((u) => ({
        userId: u.id,
      })),
    ]
    const [already] = await db.select({ name: uploads.name }).from(uploads).where(eq(uploads.name, name))
    if (!image || owners.length === 0 || already) {
      result.skipped++
      continue
    }
    const ok = await db
      .transaction(async (tx) => {
        for (const [i, owner] of owners.entries()) {
          // the first owner keeps the file's name (its link is unchanged); others get a copy of their own
          const stored = await replaceUpload(tx, owner, image, i === 0 ? name : undefined)
          if (i === 0) continue
          if ('orderId' in owner)
            await tx
              .update(orders)
              .set({ gameAvatar: MEDIA_PREFIX + stored })
              .where(eq(orders.id, owner.orderId))
          else await tx.update(users).set({ avatarImg: stored }).where(eq(users.id, owner.userId))
        }
      })
      .then(
        () => true,
        () => false,
      )
    if (ok) result.imported++
    else result.skipped++
  }
  await rename(dir, `${dir}.imported`).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err
  })
  return result
}
