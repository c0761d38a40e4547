// The shop's requisites and receipt settings (/api/admin/seller/) are one row for the whole e2e
// server, and specs that switch receipts on put the row back afterwards. Two such specs at once (the
// two Playwright workers) would undo each other: one puts receipts off while the other pays. This
// lock, a directory made atomically next to the other workers, keeps those windows one at a time.
// The shop's own settings (/api/admin/shop/: its logo and tagline, issue 47) have a lock of their own.
import { mkdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { type APIRequestContext, expect } from '@playwright/test'

const lockOf = (name: string) =>
  path.join(tmpdir(), `igromarket-e2e-${name}-${process.env.E2E_PORT ?? '3200'}.lock`)
// a window is a minute at most; a lock older than this was left by a run that was killed
const STALE_MS = 180_000

/** Runs `fn` while no other e2e worker changes the seller's settings through this lock. */
export const withSellerLock = <T>(fn: () => Promise<T>): Promise<T> => withLock('seller', fn)

/** The seller row as /api/admin/seller/ answers it (the fields a spec changes are strings). */
export type Seller = Record<string, unknown> &
  Partial<Record<'legal_form' | 'company_name' | 'inn' | 'ogrn' | 'address' | 'email', string>>

/**
 * Under the seller lock: the row is changed to `change(before)` (as the owner, `auth` headers), `fn`
 * runs, and the row is put back as it was, whatever `fn` did.
 */
export const withSellerChanged = <T>(
  request: APIRequestContext,
  auth: Record<string, string>,
  change: (before: Seller) => Seller,
  fn: () => Promise<T>,
): Promise<T> =>
  withSellerLock(async () => {
    const read = await request.get('/api/admin/seller/', { headers: auth })
    expect(read.status(), await read.text()).toBe(200)
    const before = (await read.json()) as Seller
    const put = await request.put('/api/admin/seller/', { headers: auth, data: change(before) })
    expect(put.status(), await put.text()).toBe(200)
    try {
      return await fn()
    } finally {
      const back = await request.put('/api/admin/seller/', { headers: auth, data: before })
      expect(back.status(), await back.text()).toBe(200)
    }
  })

/** Runs `fn` while no other e2e worker changes the shop's name, logo or tagline through this lock. */
export const withShopLock = <T>(fn: () => Promise<T>): Promise<T> => withLock('shop', fn)

async function withLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const LOCK = lockOf(name)
  const start = Date.now()
  for (;;) {
    try {
      mkdirSync(LOCK)
      break
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
      try {
        if (Date.now() - statSync(LOCK).mtimeMs > STALE_MS) rmSync(LOCK, { recursive: true, force: true })
      } catch {
        // removed meanwhile by its holder: try again
      }
      if (Date.now() - start > STALE_MS) throw new Error(`the ${name} settings lock ${LOCK} is held too long`)
      await new Promise((r) => setTimeout(r, 250))
    }
  }
  try {
    return await fn()
  } finally {
    rmSync(LOCK, { recursive: true, force: true })
  }
}
