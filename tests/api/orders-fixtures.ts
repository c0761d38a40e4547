// Rows the order tests insert for themselves, so they never depend on the demo catalogue's ids.
import { randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import {
  games,
  products,
  steamSettings,
  supplyServers,
  standoffSettings,
  users,
  voucherCodes,
} from '#api/db/schema'
import { startSession } from '#api/services/auth/tokens'
import { postBalanceEntry } from '#api/services/balance/ledger'
import type { TestApi } from '#tests/helpers/test-api'

export type Err = { detail: string; code: string; fields?: Record<string, string[]> }

/** A signed-in user (a real sign-in); its email counts as confirmed unless `confirmed: false`. */
export async function makeUser(
  api: TestApi,
  opts: { balance?: number; email?: string; confirmed?: boolean } = {},
) {
  const email = opts.email ?? `u${randomBytes(4).toString('hex')}@example.com`
  const [u] = await api.db
    .insert(users)
    .values({
      email,
      emailConfirmedAt: opts.confirmed === false ? null : new Date(),
    })
    .returning()
  // a starting balance is a correction entry, as support would make it: the ledger stays the sum
  if (opts.balance)
    await postBalanceEntry(api.db, {
      userId: u!.id,
      kind: 'correction',
      amount: opts.balance,
      cause: `test:${email}`,
    })
  const { access: token } = await startSession(api.db, api.config, u!.id)
  return { id: u!.id, email, token }
}

export async function makeGame(
  api: TestApi,
  kind: (typeof games.$inferInsert)['kind'],
  opts: Partial<typeof games.$inferInsert> = {},
) {
  const [g] = await api.db
    .insert(games)
    .values({ kind, title: `Test ${kind} ${randomBytes(3).toString('hex')}`, ...opts })
    .returning()
  return g!
}

export async function makeProduct(
  api: TestApi,
  gameId: number,
  kind: (typeof products.$inferInsert)['kind'],
  opts: Partial<typeof products.$inferInsert> & { codes?: number } = {},
) {
  const { codes, ...values } = opts
  const [p] = await api.db
    .insert(products)
    .values({ gameId, kind, title: `P ${randomBytes(3).toString('hex')}`, price: 10000, ...values })
    .returning()
  // PUBG products are sold from a code inventory: in stock unless told otherwise
  const stock = codes ?? (kind === 'PUBGProduct' ? 30 : 0)
  if (stock > 0)
    await api.db.insert(voucherCodes).values(
      Array.from({ length: stock }, (_, i) => ({
        productId: p!.id,
        code: `F-${p!.id}-${i}-${randomBytes(3).toString('hex')}`,
        amountUc: p!.amountUc ?? 60,
      })),
    )
  return p!
}

export async function makeServer(api: TestApi, gameId: number, name = 'EU') {
  const [s] = await api.db
    .insert(supplyServers)
    .values({ gameId, name, code: name.toLowerCase() })
    .returning()
  return s!
}

/** Makes sure the single-row settings exist with known values (the demo seed may or may not have them). */
export async function ensureSettings(api: TestApi) {
  await api.db.delete(steamSettings)
  await api.db.insert(steamSettings).values({ id: 1, commission: 800, minAmount: 10000, maxAmount: 1500000 })
  await api.db.delete(standoffSettings)
  await api.db.insert(standoffSettings).values({
    id: 1,
    needRefund: false,
    isSurplusEnabled: true,
    skinName: 'AKR "Carbon"',
    skinPicture: '/images/skin.png',
    marketFee: 500,
  })
}

/** Switches every other game of `kind` off so "the only active game" is well defined. */
export async function onlyActive(api: TestApi, kind: (typeof games.$inferInsert)['kind'], keepId: number) {
  const rows = await api.db.select({ id: games.id }).from(games).where(eq(games.kind, kind))
  for (const r of rows) {
    if (r.id !== keepId) await api.db.update(games).set({ isActive: false }).where(eq(games.id, r.id))
  }
}
