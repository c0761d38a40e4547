// What a promo code discounts (issue 45, decision 126): every kind of code on every kind of order.
// A code takes its percent off the price of PUBG, Standoff, supply and gift orders; on a Steam top-up
// only off the shop's commission, never the amount passed to the wallet; the owner can exclude order
// kinds from a code, and the promo screen's API says for each kind what the code discounts.
import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gifts, orders } from '#api/db/schema'
import { grantRole } from '#api/services/admin/roles'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { ensureSettings, makeGame, makeProduct, makeServer, makeUser, onlyActive } from './orders-fixtures'
import { makePubgStock } from './payments-fixtures'

type Err = { detail: string; code: string }
type PromoResult = {
  total_without_promocode: string
  total_with_promocode: string
  total_to_pay: string
}
type AdminPromo = {
  id: number
  code: string
  excluded_kinds: string[]
  discounts: Array<{ kind: string; target: 'price' | 'commission' | 'none' }>
}
type Kind = 'PUBGOrder' | 'StandoffOrder' | 'SteamOrder' | 'MooGoldOrder' | 'RokkyOrder'

let api: TestApi
let owner: Awaited<ReturnType<typeof makeUser>>
/** One unpaid order of each kind, its total and (Steam) its wallet amount, in kopecks. */
const order = {} as Record<
  Kind,
  { id: string; total: number; steamAmount: number | null; gameId: number | null }
>
const promo: Record<string, AdminPromo> = {}

const kop = (money: string) => Math.round(Number(money) * 100)

beforeAll(async () => {
  api = await createTestApi({ env: { PROMO_LIMIT_PER_ADDRESS: '100000', PROMO_LIMIT_PER_TARGET: '100000' } })
  await ensureSettings(api) // Steam commission 8 %
  owner = await makeUser(api)
  await grantRole(api.db, owner.email, 'owner', 'test')
  const email = () => `ps-${randomUUID().slice(0, 8)}@example.com`
  const created = async (path: string, body: Record<string, unknown>) => {
    const r = await api.call<{ id: string } & Err>('POST', path, { body: { email: email(), ...body } })
    expect(r.status, r.body.detail).toBe(201)
    const [o] = await api.db.select().from(orders).where(eq(orders.id, r.body.id))
    return { id: o!.id, total: o!.total, steamAmount: o!.steamAmount, gameId: o!.gameId }
  }

  const { product: uc } = await makePubgStock(api, { codes: 5, price: 45000 })
  const pubg = { id: uc.gameId }
  const standoff = await makeGame(api, 'StandoffGame', { supplier: 'manual' })
  const gold = await makeProduct(api, standoff.id, 'StandoffProduct', { price: 12345, gold: 100 })
  const steam = await makeGame(api, 'Steam', { supplier: 'manual' })
  await onlyActive(api, 'Steam', steam.id)
  const supply = await makeGame(api, 'SupplyGame', {
    supplier: 'manual',
    isServerNeeded: true,
    isServerEnum: true,
  })
  const diamonds = await makeProduct(api, supply.id, 'SupplyProduct', { price: 9999 })
  const server = await makeServer(api, supply.id, 'Asia')

  order.PUBGOrder = await created('/api/orders/pubg/', { products: [{ product_id: uc.id, quantity: 2 }] })
  order.StandoffOrder = await created('/api/orders/standoff/', {
    products: [{ product_id: gold.id, quantity: 1 }],
    game_account_id: '51234567',
    surplus: '0.07',
  })
  order.SteamOrder = await created('/api/orders/steam/', { amount: '1000.00', steam_account_id: 'gaben' })
  order.MooGoldOrder = await created('/api/orders/supply_channel/', {
    products: [{ product_id: diamonds.id, quantity: 3 }],
    supply_channel_user_id: '777',
    supply_channel_server: server.id,
  })
  const [gift] = await api.db.select().from(gifts).limit(1)
  const giftPrice = gift!.discountPrice ?? gift!.price
  const giftOrder = randomUUID()
  await api.db.insert(orders).values({
    id: giftOrder,
    kind: 'RokkyOrder',
    giftId: gift!.id,
    email: email(),
    total: giftPrice,
    totalToPay: giftPrice,
  })
  order.RokkyOrder = { id: giftOrder, total: giftPrice, steamAmount: null, gameId: null }

  // every kind of code the owner can make on the promo screen
  const add = async (name: string, body: Record<string, unknown>) => {
    const r = await api.call<AdminPromo & Err>('POST', '/api/admin/promo_codes/', {
      token: owner.token,
      body: { code: `${name}${randomUUID().slice(0, 4)}`, ...body },
    })
    expect(r.status, r.body.detail).toBe(200)
    promo[name] = r.body
  }
  await add('ALL5', { percent: 5, resourcetype: 'PromoCode' })
  await add('ALL100', { percent: 100, resourcetype: 'PromoCode' })
  await add('STEAM10', { percent: 10, game: steam.id })
  await add('PUBG33', { percent: 33, game: pubg.id })
  await add('NOSTEAM20', {
    percent: 20,
    resourcetype: 'PromoCode',
    excluded_kinds: ['SteamOrder', 'SteamOrder'],
  })
  await add('GIFTS15', { percent: 15, resourcetype: 'GiftPromoCode' })
  await add('GIFT1', { percent: 7, gift: gift!.id })
  await add('NOGIFT', { percent: 7, resourcetype: 'GiftPromoCode', excluded_kinds: ['RokkyOrder'] })
})
afterAll(() => api?.close())

/** The code's discount on an order, computed here from the rule (percent half up of the base). */
function expected(kind: Kind, percent: number): number {
  const o = order[kind]
  const base = kind === 'SteamOrder' ? o.total - o.steamAmount! : o.total
  return o.total - Math.min(base, Math.floor((base * percent + 50) / 100))
}

/** Which codes fit which orders: the refusal code, or null when the code applies. */
const FITS: Record<string, Record<Kind, string | null>> = {
  ALL5: {
    PUBGOrder: null,
    StandoffOrder: null,
    SteamOrder: null,
    MooGoldOrder: null,
    RokkyOrder: 'promo_code_foreign_game',
  },
  ALL100: {
    PUBGOrder: null,
    StandoffOrder: null,
    SteamOrder: null,
    MooGoldOrder: null,
    RokkyOrder: 'promo_code_foreign_game',
  },
  STEAM10: {
    PUBGOrder: 'promo_code_foreign_game',
    StandoffOrder: 'promo_code_foreign_game',
    SteamOrder: null,
    MooGoldOrder: 'promo_code_foreign_game',
    RokkyOrder: 'promo_code_foreign_game',
  },
  PUBG33: {
    PUBGOrder: null,
    StandoffOrder: 'promo_code_foreign_game',
    SteamOrder: 'promo_code_foreign_game',
    MooGoldOrder: 'promo_code_foreign_game',
    RokkyOrder: 'promo_code_foreign_game',
  },
  NOSTEAM20: {
    PUBGOrder: null,
    StandoffOrder: null,
    SteamOrder: 'promo_code_excluded_kind',
    MooGoldOrder: null,
    RokkyOrder: 'promo_code_foreign_game',
  },
  GIFTS15: {
    PUBGOrder: 'promo_code_foreign_gift',
    StandoffOrder: 'promo_code_foreign_gift',
    SteamOrder: 'promo_code_foreign_gift',
    MooGoldOrder: 'promo_code_foreign_gift',
    RokkyOrder: null,
  },
  GIFT1: {
    PUBGOrder: 'promo_code_foreign_gift',
    StandoffOrder: 'promo_code_foreign_gift',
    SteamOrder: 'promo_code_foreign_gift',
    MooGoldOrder: 'promo_code_foreign_gift',
    RokkyOrder: null,
  },
  NOGIFT: {
    PUBGOrder: 'promo_code_foreign_gift',
    StandoffOrder: 'promo_code_foreign_gift',
    SteamOrder: 'promo_code_foreign_gift',
    MooGoldOrder: 'promo_code_foreign_gift',
    RokkyOrder: 'promo_code_excluded_kind',
  },
}

const PERCENT: Record<string, number> = {
  ALL5: 5,
  ALL100: 100,
  STEAM10: 10,
  PUBG33: 33,
  NOSTEAM20: 20,
  GIFTS15: 15,
  GIFT1: 7,
  NOGIFT: 7,
}

const KINDS: Kind[] = ['PUBGOrder', 'StandoffOrder', 'SteamOrder', 'MooGoldOrder', 'RokkyOrder']

describe('every promo kind on every order kind', () => {
  it('discounts the price, a Steam top-up only its commission, and refuses what is out of scope', async () => {
    expect(order.SteamOrder.steamAmount).toBe(100000)
    expect(order.SteamOrder.total).toBe(108000)
    for (const [name, fits] of Object.entries(FITS)) {
      const p = promo[name]!
      const percent = PERCENT[name]!
      for (const kind of KINDS) {
        const r = await api.call<PromoResult & Err>(
          'POST',
          `/api/orders/${order[kind].id}/activate_promo_code/`,
          {
            body: { code: p.code },
          },
        )
        const refusal = fits[kind]
        if (refusal) {
          expect(r.status, `${name} on ${kind}`).toBe(400)
          expect(r.body.code, `${name} on ${kind}`).toBe(refusal)
          expect(r.body.detail).toMatch(/[а-я]/)
          continue
        }
        expect(r.status, `${name} on ${kind}: ${r.body.detail}`).toBe(200)
        expect(kop(r.body.total_without_promocode)).toBe(order[kind].total)
        expect(kop(r.body.total_with_promocode), `${name} on ${kind}`).toBe(expected(kind, percent))
        // the Steam amount is never discounted, whatever the percent
        if (kind === 'SteamOrder') expect(kop(r.body.total_with_promocode)).toBeGreaterThanOrEqual(100000)
        // the order the payment would be for says the same
        const [o] = await api.db.select().from(orders).where(eq(orders.id, order[kind].id))
        expect(o!.totalToPay).toBe(expected(kind, percent))
      }
    }
  })

  it('ALL5 takes 4 ₽ off a 1 000 ₽ top-up with an 80 ₽ commission, 100 % leaves the wallet amount whole', async () => {
    const steam = order.SteamOrder.id
    const five = await api.call<PromoResult>('POST', `/api/orders/${steam}/activate_promo_code/`, {
      body: { code: promo.ALL5!.code },
    })
    expect(five.body.total_with_promocode).toBe('1076.00')
    const all = await api.call<PromoResult>('POST', `/api/orders/${steam}/activate_promo_code/`, {
      body: { code: promo.ALL100!.code },
    })
    expect(all.body.total_with_promocode).toBe('1000.00')
    expect(all.body.total_to_pay).toBe('1000.00')
  })

  it('the promo screen says, for each order kind, what each code discounts', async () => {
    const r = await api.call<AdminPromo[]>('GET', '/api/admin/promo_codes/', { token: owner.token })
    const byCode = new Map(r.body.map((p) => [p.code, p]))
    const targets = (name: string) =>
      Object.fromEntries(byCode.get(promo[name]!.code)!.discounts.map((d) => [d.kind, d.target]))
    expect(targets('ALL5')).toEqual({
      PUBGOrder: 'price',
      StandoffOrder: 'price',
      SteamOrder: 'commission',
      MooGoldOrder: 'price',
      RokkyOrder: 'none',
    })
    expect(targets('NOSTEAM20').SteamOrder).toBe('none')
    expect(byCode.get(promo.NOSTEAM20!.code)!.excluded_kinds).toEqual(['SteamOrder'])
    expect(targets('GIFTS15')).toEqual({
      PUBGOrder: 'none',
      StandoffOrder: 'none',
      SteamOrder: 'none',
      MooGoldOrder: 'none',
      RokkyOrder: 'price',
    })
    expect(targets('NOGIFT').RokkyOrder).toBe('none')
  })

  it('the owner excludes and re-includes a kind; an unknown kind is refused with a message', async () => {
    const p = promo.ALL5!
    const off = await api.call<AdminPromo>('PATCH', `/api/admin/promo_codes/${p.id}/`, {
      token: owner.token,
      body: { excluded_kinds: ['PUBGOrder'] },
    })
    expect(off.body.excluded_kinds).toEqual(['PUBGOrder'])
    const refused = await api.call<Err>('POST', `/api/orders/${order.PUBGOrder.id}/activate_promo_code/`, {
      body: { code: p.code },
    })
    expect(refused.body.code).toBe('promo_code_excluded_kind')
    expect(refused.body.detail).toBe('Этот промокод не действует на коды PUBG')
    await api.call('PATCH', `/api/admin/promo_codes/${p.id}/`, {
      token: owner.token,
      body: { excluded_kinds: [] },
    })
    const again = await api.call('POST', `/api/orders/${order.PUBGOrder.id}/activate_promo_code/`, {
      body: { code: p.code },
    })
    expect(again.status).toBe(200)
    const bad = await api.call<Err>('PATCH', `/api/admin/promo_codes/${p.id}/`, {
      token: owner.token,
      body: { excluded_kinds: ['Nothing'] },
    })
    expect(bad.status).toBe(400)
    expect(bad.body.detail).toMatch(/вид заказа/)
  })
})
