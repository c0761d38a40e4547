import { and, eq, isNotNull, isNull } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { giftCodes, gifts } from '#api/db/schema'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'

interface GiftOut {
  resourcetype: string
  id: number
  title: string
  type: string
  price: string
  region: string
  cashback: number
  logo: string
  discount_price: string | null
  discount_percent: number
  in_stock: boolean
}
interface Page {
  count: number
  next: string | null
  previous: string | null
  results: GiftOut[]
}
interface ErrorOut {
  detail: string
  code: string
  fields?: Record<string, string[]>
}

let api: TestApi
/** Gifts this file adds next to the demo catalogue, to pin down filters independently of it. */
const fx = { hidden: 0, probe: 0, soldOut: 0 }

beforeAll(async () => {
  api = await createTestApi()
  const inserted = await api.db
    .insert(gifts)
    .values([
      {
        title: 'Скрытая карта Zyx',
        type: 'Подарочная карта',
        region: 'Россия',
        price: 10000,
        isNew: true,
        isMain: true,
        discountPrice: 9000,
        discountPercent: 10,
        isActive: false,
      },
      {
        title: 'Проба Quokka',
        type: 'Тестовый тип Wombat',
        region: 'Регион Ypsilon',
        price: 12345,
        tags: ['ТегОмега', 'ещё'],
        description: 'Описание пробы',
      },
      { title: 'Распродано 100% Kiwi', type: 'Подписка', region: 'Казахстан', price: 5000 },
    ])
    .returning({ id: gifts.id })
  ;[fx.hidden, fx.probe, fx.soldOut] = inserted.map((r) => r.id) as [number, number, number]
  await api.db.insert(giftCodes).values([
    { giftId: fx.hidden, code: 'H7-HIDDEN-1' },
    { giftId: fx.probe, code: 'H7-PROBE-1' },
    // the only code of this gift is already sold
    { giftId: fx.soldOut, code: 'H7-SOLD-1', soldAt: new Date() },
  ])
})
afterAll(() => api.close())

const get = <T = Page>(url: string) => api.call<T>('GET', url)
const ids = (p: Page) => p.results.map((g) => g.id).sort((a, b) => a - b)

/** Every page of a list, walked through its `next` links. */
async function walk(url: string): Promise<GiftOut[]> {
  const out: GiftOut[] = []
  for (let next: string | null = url; next; ) {
    const r: { status: number; body: Page } = await get(next)
    expect(r.status).toBe(200)
    out.push(...r.body.results)
    next = r.body.next
  }
  return out
}

async function activeIds(where?: ReturnType<typeof and>) {
  const rows = await api.db
    .select({ id: gifts.id })
    .from(gifts)
    .where(and(eq(gifts.isActive, true), where))
  return rows.map((r) => r.id).sort((a, b) => a - b)
}

describe('GET /api/gifts/', () => {
  it('lists only active gifts, each with the RokkyGift fields and in_stock', async () => {
    const r = await get('/api/gifts/?limit=100')
    expect(r.status).toBe(200)
    expect(ids(r.body)).toEqual(await activeIds())
    expect(r.body.count).toBe(r.body.results.length)
    expect(ids(r.body)).not.toContain(fx.hidden)
    const probe = r.body.results.find((g) => g.id === fx.probe)
    expect(probe).toEqual({
      resourcetype: 'RokkyGift',
      id: fx.probe,
      title: 'Проба Quokka',
      type: 'Тестовый тип Wombat',
      price: '123.45',
      region: 'Регион Ypsilon',
      cashback: 0,
      logo: '',
      discount_price: null,
      discount_percent: 0,
      in_stock: true,
    })
  })

  it('marks gifts without a free code as out of stock but still lists them', async () => {
    const all = await walk('/api/gifts/?limit=5')
    const soldOut = all.find((g) => g.id === fx.soldOut)
    expect(soldOut?.in_stock).toBe(false)
    const withFreeCodes = new Set(
      (
        await api.db.selectDistinct({ id: giftCodes.giftId }).from(giftCodes).where(isNull(giftCodes.soldAt))
      ).map((r) => r.id),
    )
    for (const g of all) expect(g.in_stock).toBe(withFreeCodes.has(g.id))
    // the demo catalogue has one gift out of stock too
    expect(all.filter((g) => !g.in_stock).length).toBeGreaterThanOrEqual(2)
  })

  it('new/ holds exactly the active is_new gifts and discounted/ exactly those with a discount price', async () => {
    const fresh = await get('/api/gifts/new/?limit=100')
    expect(fresh.status).toBe(200)
    expect(ids(fresh.body)).toEqual(await activeIds(eq(gifts.isNew, true)))
    expect(fresh.body.results.length).toBeGreaterThan(0)
    expect(ids(fresh.body)).not.toContain(fx.hidden)

    const cheap = await get('/api/gifts/discounted/?limit=100')
    expect(cheap.status).toBe(200)
    expect(ids(cheap.body)).toEqual(await activeIds(isNotNull(gifts.discountPrice)))
    expect(cheap.body.results.length).toBeGreaterThan(0)
    for (const g of cheap.body.results) {
      expect(g.discount_price).not.toBeNull()
      expect(Number(g.discount_price)).toBeLessThan(Number(g.price))
    }
  })

  it('filters by is_main true and false, and refuses anything else with a Russian 400', async () => {
    const main = await get('/api/gifts/?is_main=true&limit=100')
    const rest = await get('/api/gifts/?is_main=false&limit=100')
    expect(ids(main.body)).toEqual(await activeIds(eq(gifts.isMain, true)))
    expect(ids(rest.body)).toEqual(await activeIds(eq(gifts.isMain, false)))
    expect(main.body.count + rest.body.count).toBe((await activeIds()).length)
    const mainNew = await get('/api/gifts/new/?is_main=true&limit=100')
    expect(ids(mainNew.body)).toEqual(await activeIds(and(eq(gifts.isMain, true), eq(gifts.isNew, true))))

    for (const bad of ['yes', '1', 'TRUE', '']) {
      const r = await get<ErrorOut>(`/api/gifts/?is_main=${bad}`)
      expect(r.status).toBe(400)
      expect(r.body.code).toBe('validation_error')
      expect(r.body.detail).toMatch(/is_main.*true или false/)
    }
  })

  it('searches title, type, region and tags case-insensitively', async () => {
    for (const q of ['quokka', 'WOMBAT', 'ypsilon', 'тегомега', 'ПРОБА']) {
      const r = await get(`/api/gifts/?search=${encodeURIComponent(q)}`)
      expect(r.status, q).toBe(200)
      expect(ids(r.body), q).toEqual([fx.probe])
    }
    // the search applies inside the named lists too
    expect((await get('/api/gifts/new/?search=quokka')).body.count).toBe(0)
    // inactive gifts are never found
    expect((await get('/api/gifts/?search=Zyx')).body.count).toBe(0)
  })

  it('title__icontains looks at the title only', async () => {
    expect(ids((await get('/api/gifts/?title__icontains=QUOKKA')).body)).toEqual([fx.probe])
    expect((await get('/api/gifts/?title__icontains=wombat')).body.count).toBe(0)
    expect((await get('/api/gifts/?title__icontains=ypsilon')).body.count).toBe(0)
  })

  it('takes %, _ and \\ in a search literally', async () => {
    expect(ids((await get(`/api/gifts/?search=${encodeURIComponent('100%')}`)).body)).toEqual([fx.soldOut])
    expect((await get(`/api/gifts/?search=${encodeURIComponent('%')}`)).body.count).toBe(1)
    expect((await get(`/api/gifts/?search=${encodeURIComponent('_')}`)).body.count).toBe(0)
    expect((await get(`/api/gifts/?search=${encodeURIComponent('\\')}`)).body.count).toBe(0)
  })
})

describe('paging', () => {
  it('walks the list in pages that neither overlap nor skip', async () => {
    const first = await get('/api/gifts/?limit=4')
    expect(first.body.results).toHaveLength(4)
    expect(first.body.previous).toBeNull()
    expect(first.body.next).toBe('/api/gifts/?limit=4&offset=4')
    const all = await walk('/api/gifts/?limit=4')
    expect(all.map((g) => g.id).sort((a, b) => a - b)).toEqual(await activeIds())
    expect(new Set(all.map((g) => g.id)).size).toBe(all.length)

    const second = await get('/api/gifts/?limit=4&offset=4')
    expect(second.body.previous).toBe('/api/gifts/?limit=4')
  })

  it('keeps the filters in next and previous links', async () => {
    const r = await get('/api/gifts/?limit=1&offset=1&search=usd&is_main=false')
    expect(r.body.count).toBeGreaterThan(2)
    for (const link of [r.body.next, r.body.previous]) {
      expect(link).toContain('search=usd')
      expect(link).toContain('is_main=false')
    }
  })

  it('answers an offset past the end with no results and the right count', async () => {
    const total = (await activeIds()).length
    for (const offset of [total, total + 1, 999_999_999]) {
      const r = await get(`/api/gifts/?offset=${offset}`)
      expect(r.status).toBe(200)
      expect(r.body.count).toBe(total)
      expect(r.body.results).toEqual([])
      expect(r.body.next).toBeNull()
      expect(r.body.previous).not.toBeNull()
    }
  })

  it('refuses negative, non-numeric, zero and oversized paging values with a Russian 400', async () => {
    for (const q of [
      'offset=-1',
      'offset=abc',
      'offset=1.5',
      'limit=-5',
      'limit=x',
      'limit=0',
      'limit=101',
    ]) {
      for (const list of ['', 'new/', 'discounted/']) {
        const r = await get<ErrorOut>(`/api/gifts/${list}?${q}`)
        expect(r.status, `${list}?${q}`).toBe(400)
        expect(r.body.code).toBe('validation_error')
        expect(r.body.detail).toMatch(/[а-я]/)
      }
    }
  })
})

describe('GET /api/gifts/{id}/', () => {
  it('adds description, tags and created', async () => {
    const r = await get<GiftOut & { description: string; tags: string[]; created: string }>(
      `/api/gifts/${fx.probe}/`,
    )
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({
      resourcetype: 'RokkyGift',
      id: fx.probe,
      title: 'Проба Quokka',
      description: 'Описание пробы',
      tags: ['ТегОмега', 'ещё'],
      in_stock: true,
    })
    expect(new Date(r.body.created).toISOString()).toBe(r.body.created)
  })

  it('shows a discounted gift with both prices', async () => {
    const list = await get('/api/gifts/discounted/?limit=1')
    const g = list.body.results[0]!
    const r = await get<GiftOut>(`/api/gifts/${g.id}/`)
    expect(r.body.price).toBe(g.price)
    expect(r.body.discount_price).toBe(g.discount_price)
    expect(r.body.discount_percent).toBeGreaterThan(0)
  })

  it('answers unknown and inactive gifts with a Russian 404, and a non-numeric id with a 400', async () => {
    for (const id of [999_999, fx.hidden]) {
      const r = await get<ErrorOut>(`/api/gifts/${id}/`)
      expect(r.status).toBe(404)
      expect(r.body).toEqual({ detail: 'Подарок не найден', code: 'gift_not_found' })
    }
    for (const id of ['abc', '-1', '1.5']) {
      const r = await get<ErrorOut>(`/api/gifts/${id}/`)
      expect(r.status, id).toBe(400)
      expect(r.body.detail).toMatch(/[а-я]/)
    }
  })
})
