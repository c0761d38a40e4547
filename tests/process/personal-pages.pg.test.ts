// Issue 36, decision 103: a signed-in buyer's profile and pay page are kept per buyer, and any write
// to their data, made through another instance, shows on the next request to the first one (the
// key carries a stamp of the buyer's rows read from the shared database, not a timer: the cache
// time here is a minute). A page that shows a delivered code is never kept (each showing is
// logged). A sign-out through the other instance ends the kept copy at once.
import { randomUUID } from 'node:crypto'
import { afterAll, expect, it } from 'vitest'
import { createPgDatabase, type PgTestDatabase } from '#tests/helpers/pg-database'
import { type ShopProcess, startShopProcess } from '#tests/helpers/shop-process'
import { signUpBuyerWithOrder } from '#tests/helpers/signed-in-leak'

const shops: ShopProcess[] = []
let db: PgTestDatabase | null = null
afterAll(async () => {
  await Promise.all(shops.map((s) => s.stop()))
  await db?.drop()
})

async function page(base: string, path: string, cookie: string) {
  const res = await fetch(`${base}${path}`, { headers: { cookie }, redirect: 'manual' })
  return { status: res.status, cache: res.headers.get('x-page-cache'), body: await res.text() }
}

it('a kept profile or pay page never outlives a write made through another instance', async () => {
  db = await createPgDatabase('shop_personal')
  const env = {
    DATABASE_URL: db.url,
    PUBLIC_URL: 'http://localhost',
    CATALOGUE_CACHE_SECONDS: '60',
  }
  shops.push(await startShopProcess({ env: { ...env, SEED_DEMO: '1' }, readyTimeoutMs: 200_000 }))
  shops.push(await startShopProcess({ env, readyTimeoutMs: 200_000 }))
  const [a, b] = shops.map((s) => s.url) as [string, string]
  const buyer = await signUpBuyerWithOrder(a, 'kept')
  const access = /access=([^;]+)/.exec(buyer.cookie)![1]!
  const refresh = /refresh=([^;]+)/.exec(buyer.cookie)![1]!
  const bearer = { authorization: `Bearer ${access}`, 'content-type': 'application/json' }
  const pay = `/orders/${buyer.orderId}/pay`

  // the second load of each page is the kept copy, with the buyer's own data
  for (const path of [pay, '/profile']) {
    expect((await page(a, path, buyer.cookie)).cache).toBe('miss')
    const kept = await page(a, path, buyer.cookie)
    expect(kept.status, path).toBe(200)
    expect(kept.cache, path).toBe('hit')
    expect(kept.body.includes(buyer.email), path).toBe(true)
  }
  // what the pay page says once the code is on the order (app/components/payment/promo-form.tsx)
  const applied = 'Применён промокод WELCOME10'
  expect((await page(a, pay, buyer.cookie)).body.includes(applied)).toBe(false)

  // a promo code applied through the other instance: the next pay page shows it
  const promo = await fetch(`${b}/api/orders/${buyer.orderId}/activate_promo_code/`, {
    method: 'POST',
    headers: bearer,
    body: JSON.stringify({ code: 'WELCOME10' }),
  })
  expect(promo.status).toBe(200)
  const afterPromo = await page(a, pay, buyer.cookie)
  expect(afterPromo.cache).toBe('miss')
  expect(afterPromo.body.includes(applied)).toBe(true)
  expect((await page(a, pay, buyer.cookie)).cache).toBe('hit')

  // a new name set through the other instance: the next profile shows it
  const nickname = `renamed ${randomUUID().slice(0, 6)}`
  const renamed = await fetch(`${b}/api/auth/profile/`, {
    method: 'PATCH',
    headers: bearer,
    body: JSON.stringify({ nickname }),
  })
  expect(renamed.status).toBe(200)
  const afterRename = await page(a, '/profile', buyer.cookie)
  expect(afterRename.cache).toBe('miss')
  expect(afterRename.body.includes(nickname)).toBe(true)
  expect(afterRename.body.includes(buyer.nickname)).toBe(false)

  // delivered: once its pages show the code, no copy of them is kept, since every showing of a
  // code is logged (code_views) and a copy would show it unlogged
  const [sold] = await db.query<{ code: string }>(
    `update voucher_codes set order_product_id = l.id, sold_at = now()
       from (select id, product_id from order_products where order_id = $1 limit 1) l
      where voucher_codes.id = (select v.id from voucher_codes v
                                 where v.product_id = l.product_id and v.order_product_id is null
                                   and v.sold_at is null limit 1)
      returning voucher_codes.code`,
    [buyer.orderId],
  )
  await db.query(`update orders set status = 'done' where id = $1`, [buyer.orderId])
  expect(sold?.code).toBeTruthy()
  for (const path of [pay, '/profile'])
    for (let i = 0; i < 3; i++) {
      const shown = await page(a, path, buyer.cookie)
      expect(shown.status, path).toBe(200)
      expect(shown.body.includes(sold!.code), path).toBe(true)
      expect(shown.cache, `${path}, load ${i + 1}`).not.toBe('hit')
    }

  // signed out through the other instance: no kept page is served to the old cookie any more
  const out = await fetch(`${b}/api/auth/logout/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ refresh }),
  })
  expect(out.status).toBe(204)
  for (const path of ['/profile', pay]) {
    const after = await page(a, path, `access=${access}`)
    expect(after.cache, path).not.toBe('hit')
    expect(after.body.includes(nickname), path).toBe(false)
  }
}, 400_000)
