import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { games, products, supplyServers } from '#api/db/schema'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'

type Page<T> = { count: number; next: string | null; previous: string | null; results: T[] }
type Product = {
  id: number
  resourcetype: string
  price: string
  discount_price: string | null
  amount_uc?: number
  gold?: number
  is_active: boolean
}
type Game = {
  id: number
  resourcetype: string
  title: string
  created: string
  products: Product[]
  servers?: Array<{ id: number; name: string }>
  is_server_needed?: boolean
  is_server_enum?: boolean
}

let api: TestApi
// Our own rows, so the assertions do not depend on the demo catalogue.
const ids = {} as Record<
  | 'pubg'
  | 'standoff'
  | 'supply'
  | 'hidden'
  | 'pubgA'
  | 'pubgB'
  | 'pubgOff'
  | 'gold'
  | 'hiddenProduct'
  | 'server',
  number
>

beforeAll(async () => {
  api = await createTestApi()
  const [pubg, standoff, supply, hidden] = await api.db
    .insert(games)
    .values([
      { kind: 'PUBGGame', title: 'Zz Catalogue PUBG 100%_test', detailTitle: 'Пополнение UC', tags: ['uc'] },
      { kind: 'StandoffGame', title: 'Zz Catalogue Standoff' },
      { kind: 'SupplyGame', title: 'Zz Catalogue Supply', isServerNeeded: true, isServerEnum: true },
      { kind: 'PUBGGame', title: 'Zz Catalogue Hidden', isActive: false },
    ])
    .returning()
  ids.pubg = pubg!.id
  ids.standoff = standoff!.id
  ids.supply = supply!.id
  ids.hidden = hidden!.id
  const rows = await api.db
    .insert(products)
    .values([
      { gameId: pubg!.id, kind: 'PUBGProduct', title: '60 UC', price: 9900, amountUc: 60, sortOrder: 1 },
      {
        gameId: pubg!.id,
        kind: 'PUBGProduct',
        title: '325 UC',
        price: 49900,
        discountPrice: 44900,
        discountPercent: 10,
        amountUc: 325,
        sortOrder: 2,
      },
      { gameId: pubg!.id, kind: 'PUBGProduct', title: 'off', price: 100, amountUc: 1, isActive: false },
      { gameId: standoff!.id, kind: 'StandoffProduct', title: '100 gold', price: 12000, gold: 100 },
      { gameId: hidden!.id, kind: 'PUBGProduct', title: 'hidden', price: 100, amountUc: 1 },
    ])
    .returning()
  ids.pubgA = rows[0]!.id
  ids.pubgB = rows[1]!.id
  ids.pubgOff = rows[2]!.id
  ids.gold = rows[3]!.id
  ids.hiddenProduct = rows[4]!.id
  const [server] = await api.db
    .insert(supplyServers)
    .values({ gameId: supply!.id, name: 'EU', code: 'eu' })
    .returning()
  ids.server = server!.id
})
afterAll(() => api.close())

describe('GET /api/games/', () => {
  it('pages active games with their products and never lists inactive ones', async () => {
    const all: Game[] = []
    let url: string | null = '/api/games/?limit=2'
    let count = 0
    while (url) {
      const r: { status: number; body: Page<Game> } = await api.call<Page<Game>>('GET', url)
      expect(r.status).toBe(200)
      expect(r.body.results.length).toBeLessThanOrEqual(2)
      count = r.body.count
      all.push(...r.body.results)
      url = r.body.next
    }
    expect(all).toHaveLength(count)
    expect(new Set(all.map((g) => g.id)).size).toBe(count)
    expect(all.map((g) => g.id)).not.toContain(ids.hidden)
    const pubg = all.find((g) => g.id === ids.pubg)!
    expect(pubg.resourcetype).toBe('PUBGGame')
    expect(pubg.products.map((p) => p.id)).toEqual([ids.pubgA, ids.pubgB])
  })

  it('links previous and next pages keeping the other parameters', async () => {
    const r = await api.call<Page<Game>>('GET', '/api/games/?limit=1&offset=1&search=Zz%20Catalogue')
    expect(r.body.count).toBe(3)
    expect(r.body.previous).toBe('/api/games/?limit=1&search=Zz+Catalogue')
    expect(r.body.next).toBe('/api/games/?limit=1&offset=2&search=Zz+Catalogue')
  })

  it('filters by search (title or detail title) and title__icontains, case-insensitively', async () => {
    const bySearch = await api.call<Page<Game>>(
      'GET',
      '/api/games/?search=%D0%BF%D0%BE%D0%BF%D0%BE%D0%BB%D0%BD',
    )
    expect(bySearch.body.results.map((g) => g.id)).toContain(ids.pubg)
    const byTitle = await api.call<Page<Game>>('GET', '/api/games/?title__icontains=zz%20catalogue%20s')
    expect(byTitle.body.results.map((g) => g.id).sort()).toEqual([ids.standoff, ids.supply].sort())
    const titleOnly = await api.call<Page<Game>>(
      'GET',
      '/api/games/?title__icontains=%D0%BF%D0%BE%D0%BF%D0%BE%D0%BB%D0%BD',
    )
    expect(titleOnly.body.count).toBe(0)
  })

  it('treats LIKE wildcards in the search text literally', async () => {
    const pct = await api.call<Page<Game>>('GET', '/api/games/?search=100%25_')
    expect(pct.body.results.map((g) => g.id)).toEqual([ids.pubg])
    const none = await api.call<Page<Game>>('GET', '/api/games/?search=%25%25%25x')
    expect(none.body.count).toBe(0)
  })

  it('refuses bad paging parameters with a 400 and a message', async () => {
    for (const q of ['limit=0', 'limit=abc', 'offset=-1', 'limit=1000']) {
      const r = await api.call<{ detail: string; code: string }>('GET', `/api/games/?${q}`)
      expect(r.status, q).toBe(400)
      expect(r.body.detail).toBeTruthy()
    }
  })
})

describe('GET /api/games/{id}/', () => {
  it('returns a PUBG game with active products, amount_uc and money strings', async () => {
    const r = await api.call<Game>('GET', `/api/games/${ids.pubg}/`)
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({
      id: ids.pubg,
      resourcetype: 'PUBGGame',
      tags: ['uc'],
      is_auth_required: false,
    })
    expect(new Date(r.body.created).toString()).not.toBe('Invalid Date')
    expect(r.body.products).toEqual([
      expect.objectContaining({
        id: ids.pubgA,
        resourcetype: 'PUBGProduct',
        price: '99.00',
        discount_price: null,
        amount_uc: 60,
      }),
      expect.objectContaining({
        id: ids.pubgB,
        price: '499.00',
        discount_price: '449.00',
        discount_percent: 10,
      }),
    ])
    expect(r.body).not.toHaveProperty('servers')
  })

  it('adds gold to Standoff products', async () => {
    const r = await api.call<Game>('GET', `/api/games/${ids.standoff}/`)
    expect(r.body.resourcetype).toBe('StandoffGame')
    expect(r.body.products[0]).toMatchObject({ resourcetype: 'StandoffProduct', gold: 100, price: '120.00' })
  })

  it('adds servers and the server flags to a SupplyGame', async () => {
    const r = await api.call<Game>('GET', `/api/games/${ids.supply}/`)
    expect(r.body).toMatchObject({
      resourcetype: 'SupplyGame',
      servers: [{ id: ids.server, name: 'EU' }],
      is_server_needed: true,
      is_server_enum: true,
      products: [],
    })
  })

  it('answers 404 for inactive and unknown games and 400 for a non-numeric id', async () => {
    expect((await api.call('GET', `/api/games/${ids.hidden}/`)).status).toBe(404)
    const unknown = await api.call<{ code: string; detail: string }>('GET', '/api/games/999999/')
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ code: 'game_not_found', detail: 'Игра не найдена' })
    expect((await api.call('GET', '/api/games/abc/')).status).toBe(400)
  })

  it('serves every seeded active game in its declared shape', async () => {
    const active = await api.db
      .select({ id: games.id, kind: games.kind })
      .from(games)
      .where(eq(games.isActive, true))
    for (const g of active) {
      const r = await api.call<Game>('GET', `/api/games/${g.id}/`)
      expect(r.status).toBe(200)
      expect(r.body.resourcetype).toBe(g.kind)
    }
  })
})

describe('GET /api/products/', () => {
  it('pages only active products of active games', async () => {
    const r = await api.call<Page<Product>>('GET', '/api/products/?limit=100')
    expect(r.status).toBe(200)
    const got = r.body.results.map((p) => p.id)
    expect(got).toContain(ids.pubgA)
    expect(got).not.toContain(ids.pubgOff)
    expect(got).not.toContain(ids.hiddenProduct)
    expect(r.body.results.every((p) => p.is_active)).toBe(true)
  })

  it('filters by game', async () => {
    const r = await api.call<Page<Product>>('GET', `/api/products/?game=${ids.pubg}`)
    expect(r.body.results.map((p) => p.id)).toEqual([ids.pubgA, ids.pubgB])
    expect(r.body.count).toBe(2)
  })

  it("pages by page and page_size (the spec's other paging), links keeping the filter", async () => {
    const all = await api.call<Page<Product>>('GET', '/api/products/?limit=100')
    const listed = all.body.results.map((p) => p.id)
    expect(listed.length).toBeGreaterThan(7)
    const second = await api.call<Page<Product>>('GET', '/api/products/?page=2&page_size=5')
    expect(second.status).toBe(200)
    expect(second.body.results.map((p) => p.id)).toEqual(listed.slice(5, 10))
    expect(second.body.count).toBe(all.body.count)
    expect(second.body.previous).toBe('/api/products/?page=1&page_size=5')
    expect(second.body.next).toBe(listed.length > 10 ? '/api/products/?page=3&page_size=5' : null)
    // page alone: 20 a page; past the end: an empty page
    const first = await api.call<Page<Product>>('GET', '/api/products/?page=1')
    expect(first.body.results.map((p) => p.id)).toEqual(listed.slice(0, 20))
    expect(first.body.previous).toBeNull()
    const beyond = await api.call<Page<Product>>('GET', '/api/products/?page=999&page_size=5')
    expect(beyond.body.results).toEqual([])
    expect(beyond.body.next).toBeNull()
    const ofGame = await api.call<Page<Product>>('GET', `/api/products/?game=${ids.pubg}&page=2&page_size=1`)
    expect(ofGame.body.results.map((p) => p.id)).toEqual([ids.pubgB])
    expect(ofGame.body.previous).toBe(`/api/products/?game=${ids.pubg}&page=1&page_size=1`)
    for (const bad of ['page=0', 'page=abc', 'page_size=0', 'page_size=101', 'page=-1']) {
      const r = await api.call<{ detail: string }>('GET', `/api/products/?${bad}`)
      expect(r.status, bad).toBe(400)
      expect(r.body.detail, bad).toMatch(/[а-я]/i)
    }
  })

  it('returns one product and 404 for inactive, hidden-game or unknown products', async () => {
    const r = await api.call<Product>('GET', `/api/products/${ids.gold}/`)
    expect(r.body).toMatchObject({
      id: ids.gold,
      resourcetype: 'StandoffProduct',
      gold: 100,
      game: ids.standoff,
    })
    for (const id of [ids.pubgOff, ids.hiddenProduct, 999999]) {
      const miss = await api.call<{ code: string }>('GET', `/api/products/${id}/`)
      expect(miss.status).toBe(404)
      expect(miss.body.code).toBe('product_not_found')
    }
    expect((await api.call('GET', '/api/products/1.5/')).status).toBe(400)
  })
})
