import { expect, type Page, test } from '@playwright/test'
import { productJsonLdProblems } from '../tests/helpers/schema-org'
import { demoGift } from './demo-catalogue'

interface Offer {
  price: string
  priceCurrency: string
  availability: string
  name?: string
}

async function jsonLdOf(page: Page) {
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents()
  expect(blocks).toHaveLength(1)
  return JSON.parse(blocks[0] ?? '') as { name: string; url: string; offers: Offer | Offer[] }
}

async function expectSeoTags(page: Page, path: string) {
  const canonical = await page.locator('link[rel="canonical"]').getAttribute('href')
  expect(canonical).toBe(new URL(path, page.url()).toString())
  await expect(page.locator('meta[property="og:url"]')).toHaveAttribute('content', canonical ?? '')
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', await page.title())
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /\S{3,}/)
  await expect(page.locator('meta[property="og:image"]')).toHaveAttribute('content', /^https?:\/\//)
}

test('a game page carries a valid schema.org Product with one Offer per pack, in roubles', async ({
  page,
  request,
}) => {
  const list = (await (await request.get('/api/games/?limit=50')).json()) as {
    results: Array<{ id: number }>
  }
  let game: { id: number; title: string; products: Array<{ title: string; is_active: boolean }> } | undefined
  for (const { id } of list.results) {
    const g = await (await request.get(`/api/games/${id}/`)).json()
    // a seeded game with a logo (the back-office specs add games without one to the same shop)
    if (g.products.length > 0 && g.logo) {
      game = g
      break
    }
  }
  expect(game, 'a seeded game with products').toBeTruthy()
  if (!game) return
  await page.goto(`/products/${game.id}`)
  const ld = await jsonLdOf(page)
  expect(productJsonLdProblems(ld)).toEqual([])
  const offers = Array.isArray(ld.offers) ? ld.offers : [ld.offers]
  expect(offers.map((o) => o.name)).toEqual(game.products.map((p) => p.title))
  for (const o of offers) expect(o.priceCurrency).toBe('RUB')
  await expectSeoTags(page, `/products/${game.id}`)
})

test('a gift page carries a valid schema.org Product whose Offer is the price a shopper pays', async ({
  page,
  request,
}) => {
  const gift = await demoGift(request)
  await page.goto(`/gifts/detalis/${gift.id}`)
  const ld = await jsonLdOf(page)
  expect(productJsonLdProblems(ld)).toEqual([])
  expect(ld.name).toBe(gift.title)
  const offer = ld.offers as Offer
  expect(offer.price).toBe(gift.discount_price ?? gift.price)
  expect(offer.priceCurrency).toBe('RUB')
  expect(offer.availability).toBe(`https://schema.org/${gift.in_stock ? 'InStock' : 'OutOfStock'}`)
  await expectSeoTags(page, `/gifts/detalis/${gift.id}`)
})

test('sitemap.xml lists every game, every gift and the info pages', async ({ request }) => {
  const res = await request.get('/sitemap.xml')
  expect(res.status()).toBe(200)
  expect(res.headers()['content-type']).toContain('xml')
  const xml = await res.text()
  const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1] ?? '').pathname)
  const games = (await (await request.get('/api/games/?limit=100')).json()) as {
    count: number
    results: Array<{ id: number; is_active?: boolean }>
  }
  const gifts = (await (await request.get('/api/gifts/?limit=100')).json()) as {
    count: number
    results: Array<{ id: number }>
  }
  for (const g of games.results.filter((x) => x.is_active !== false))
    expect(locs).toContain(`/products/${g.id}`)
  for (const g of gifts.results) expect(locs).toContain(`/gifts/detalis/${g.id}`)
  for (const p of ['/', '/gifts', '/info', '/info/contacts', '/info/privacy-policy', '/info/user-agreement'])
    expect(locs).toContain(p)
  expect(new Set(locs).size).toBe(locs.length)
})

test('robots.txt allows the shop, keeps crawlers out of accounts and orders, and points to the sitemap', async ({
  request,
  baseURL,
}) => {
  const res = await request.get('/robots.txt')
  expect(res.status()).toBe(200)
  expect(res.headers()['content-type']).toContain('text/plain')
  const txt = await res.text()
  expect(txt).toMatch(/^User-agent: \*$/m)
  expect(txt).toMatch(/^Allow: \/$/m)
  for (const p of ['/profile', '/orders/', '/auth/']) expect(txt).toContain(`Disallow: ${p}\n`)
  expect(txt).toContain(`Sitemap: ${baseURL}/sitemap.xml`)
})
