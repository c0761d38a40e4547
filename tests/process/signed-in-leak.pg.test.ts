// Issue 36 on PostgreSQL: the same check as signed-in-leak.test.ts (two signed-in buyers under
// concurrent load never get each other's email, balance, orders or form keys), with the balances
// set by an outside session while the shop runs.
import { afterAll, it } from 'vitest'
import { createPgDatabase, type PgTestDatabase } from '#tests/helpers/pg-database'
import { type ShopProcess, startShopProcess } from '#tests/helpers/shop-process'
import {
  type Buyer,
  expectHostileNameEscaped,
  expectNoLeakUnderLoad,
  signUpBuyerWithOrder,
} from '#tests/helpers/signed-in-leak'

let shop: ShopProcess | null = null
let db: PgTestDatabase | null = null
afterAll(async () => {
  await shop?.stop()
  await db?.drop()
})

it('two signed-in buyers under concurrent load never get each other’s data (PostgreSQL)', async () => {
  db = await createPgDatabase('shop_leak')
  shop = await startShopProcess({
    // a cache time long enough that the loaded machine's slow rounds still fill from templates
    env: {
      SEED_DEMO: '1',
      DATABASE_URL: db.url,
      PUBLIC_URL: 'http://localhost',
      CATALOGUE_CACHE_SECONDS: '30',
    },
    readyTimeoutMs: 200_000,
  })
  const a: Buyer = { ...(await signUpBuyerWithOrder(shop.url, 'leak-a')), balance: '1234.56' }
  const b: Buyer = { ...(await signUpBuyerWithOrder(shop.url, 'leak-b')), balance: '777.77' }
  await db.query('update users set balance = $1 where email = $2', [123456, a.email])
  await db.query('update users set balance = $1 where email = $2', [77777, b.email])
  await expectNoLeakUnderLoad(shop.url, a, b)
  // a name that needs escaping never comes from a template (decision 098)
  await expectHostileNameEscaped(
    shop.url,
    await signUpBuyerWithOrder(shop.url, 'leak-c', '<script>alert(1)</script>'),
  )
}, 400_000)
