// Issue 36 on the embedded database: two signed-in buyers under concurrent load never see each
// other's email, balance, orders or form keys in any page or `.data` answer (the bearer checks
// shared within a storefront request, the verified-token cache and whatever else the signed-in
// render path keeps must stay per buyer). The balances are set while the shop is stopped, since
// PGlite serves one process.
import { eq } from 'drizzle-orm'
import { afterAll, expect, it } from 'vitest'
import { openDatabase } from '#api/db/client'
import { users } from '#api/db/schema'
import { type ShopProcess, startShopProcess } from '#tests/helpers/shop-process'
import {
  type Buyer,
  expectHostileNameEscaped,
  expectNoLeakUnderLoad,
  signUpBuyerWithOrder,
} from '#tests/helpers/signed-in-leak'

let shop: ShopProcess | null = null
afterAll(async () => {
  await shop?.stop()
})

it('two signed-in buyers under concurrent load never get each other’s data (PGlite)', async () => {
  // a cache time long enough that the loaded machine's slow rounds still fill from templates
  shop = await startShopProcess({
    env: { SEED_DEMO: '1', CATALOGUE_CACHE_SECONDS: '30' },
    readyTimeoutMs: 200_000,
  })
  const dataDir = shop.dataDir
  const first = await signUpBuyerWithOrder(shop.url, 'leak-a')
  const second = await signUpBuyerWithOrder(shop.url, 'leak-b')
  expect((await shop.stop()).code).toBe(0)
  shop = null

  const a: Buyer = { ...first, balance: '1234.56' }
  const b: Buyer = { ...second, balance: '777.77' }
  const database = await openDatabase({ dataDir: `${dataDir}/pglite` })
  await database.db.update(users).set({ balance: 123456 }).where(eq(users.email, a.email))
  await database.db.update(users).set({ balance: 77777 }).where(eq(users.email, b.email))
  await database.close()

  shop = await startShopProcess({
    env: { SEED_DEMO: '1', CATALOGUE_CACHE_SECONDS: '30' },
    dataDir,
    readyTimeoutMs: 200_000,
  })
  await expectNoLeakUnderLoad(shop.url, a, b)
  // a name that needs escaping never comes from a template (decision 098)
  await expectHostileNameEscaped(
    shop.url,
    await signUpBuyerWithOrder(shop.url, 'leak-c', '<script>alert(1)</script>'),
  )
}, 500_000)
