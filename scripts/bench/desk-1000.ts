// How long the delivery desk's first page takes with 1,000 paid orders waiting (issue 31).
// Usage: DATABASE_URL=postgres://…/empty_db npx tsx scripts/bench/desk-1000.ts
// Prints the median and worst of 20 reads of GET /api/admin/delivery/ (page of 50) through the API.
import { randomUUID } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createApi } from '#api/app'
import { openDatabase } from '#api/db/client'
import { games, orders, products, orderProducts, users } from '#api/db/schema'
import { loadApiConfig } from '#api/env'
import { seedIfEmpty } from '#api/demo/seed'
import { grantRole } from '#api/services/admin/roles'
import { startSession } from '#api/services/auth/tokens'

const url = process.env.DATABASE_URL
if (!url) throw new Error('DATABASE_URL: an empty PostgreSQL database')
const database = await openDatabase({ url, seed: (db) => seedIfEmpty(db) })
const config = loadApiConfig(
  {
    NODE_ENV: 'production',
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret',
    PUBLIC_URL: 'https://shop.example',
  },
  { dataDir: mkdtempSync(path.join(tmpdir(), 'desk-')), port: 3000 },
)
const db = database.db
const api = createApi({ db, config, fetch })
const [g] = await db
  .insert(games)
  .values({ kind: 'StandoffGame', title: 'Desk bench', supplier: 'manual' })
  .returning()
const [p] = await db
  .insert(products)
  .values({ gameId: g!.id, kind: 'StandoffProduct', title: '100 G', price: 10000, gold: 100 })
  .returning()
const now = Date.now()
for (let batch = 0; batch < 10; batch++) {
  const rows = Array.from({ length: 100 }, (_, i) => {
    const n = batch * 100 + i
    const at = new Date(now - (1000 - n) * 60_000)
    return {
      id: randomUUID(),
      kind: 'StandoffOrder' as const,
      status: 'sent' as const,
      gameId: g!.id,
      email: `b${n}@example.com`,
      total: 10000,
      totalToPay: 10000,
      paidAt: at,
      awaitingSince: at,
      gameAccountId: String(5_000_000 + n),
      surplus: n % 24,
      listingPrice: 10527 + n * 100 + (n % 24),
    }
  })
  await db.insert(orders).values(rows)
  await db
    .insert(orderProducts)
    .values(rows.map((r) => ({ orderId: r.id, productId: p!.id, quantity: 1, price: 10000 })))
}
const [u] = await db
  .insert(users)
  .values({ email: 'desk@example.com', emailConfirmedAt: new Date() })
  .returning()
await grantRole(db, 'desk@example.com', 'support', 'bench')
const { access } = await startSession(db, config, u!.id)
const times: number[] = []
for (let i = 0; i < 22; i++) {
  const t = performance.now()
  const res = await api.request('/api/admin/delivery/?page_size=50', {
    headers: { authorization: `Bearer ${access}` },
  })
  const body = (await res.json()) as { count: number }
  if (res.status !== 200 || body.count !== 1000) throw new Error(`unexpected ${res.status} ${body.count}`)
  if (i >= 2) times.push(performance.now() - t)
}
times.sort((a, b) => a - b)
console.log(
  `desk page (50 of 1,000 waiting, PostgreSQL): median ${times[10]!.toFixed(1)} ms, worst ${times.at(-1)!.toFixed(1)} ms over ${times.length} reads`,
)
await database.close()
