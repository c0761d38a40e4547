import { describe, expect, it } from 'vitest'
import { FIELD, MESSAGE, qtyField } from '#app/lib/order-form/fields'
import { applyBasisPoints, formatMoney, parseMoney, toMoney } from '#app/lib/money'
import {
  AVATAR_MAX_BYTES,
  missingFlags,
  type OrderFormRules,
  rulesFor,
  validateOrderForm,
} from '#app/lib/order-form/schema'
import {
  type CartLine,
  cartTotals,
  clampQuantity,
  steamTotals,
  subtotal,
  totalAfterDiscount,
} from '#app/lib/order-form/totals'
import { toCartLines } from '#app/lib/order-form/view-model'
import { type GameWire, toGame } from '#app/lib/view-models/game'

const line = (price: number, amount: number, extra: Partial<CartLine['data']> = {}): CartLine => ({
  data: { id: price, isActive: true, price, ...extra },
  amount,
})

describe('money in kopecks', () => {
  it('parses wire and typed amounts exactly', () => {
    expect(parseMoney('199.00')).toBe(19900)
    expect(parseMoney('0.1')).toBe(10)
    expect(parseMoney('250,50')).toBe(25050)
    expect(parseMoney(' 7 ')).toBe(700)
    for (const bad of ['', '-1', '1.005', '1e3', 'abc', '01', null, undefined])
      expect(parseMoney(bad)).toBeNull()
  })

  it('formats for the wire and for people', () => {
    expect(toMoney(19950)).toBe('199.50')
    expect(toMoney(5)).toBe('0.05')
    expect(formatMoney(123450)).toBe('1\u202f234,50\u00a0₽')
    expect(formatMoney(0)).toBe('0,00\u00a0₽')
  })

  it('applies basis points with integer rounding, half up', () => {
    expect(applyBasisPoints(50000, 800)).toBe(4000)
    expect(applyBasisPoints(12345, 800)).toBe(988) // 987.6
    expect(applyBasisPoints(1, 5000)).toBe(1) // 0.5 rounds up
  })

  it('is exact where floats are not: 0.1 + 0.2', () => {
    const total = subtotal([line(10, 1), line(20, 1)])
    expect(toMoney(total)).toBe('0.30')
  })
})

describe('cart totals (§5)', () => {
  it('subtotal is the sum of quantity × price over counted lines', () => {
    expect(subtotal([line(44900, 2), line(8900, 3)])).toBe(2 * 44900 + 3 * 8900)
    // inactive products and zero quantities do not count
    expect(subtotal([line(100, 1, { isActive: false }), line(200, 0), line(300, 1)])).toBe(300)
  })

  it('discount above the subtotal makes the total 0, otherwise subtotal − discount', () => {
    expect(totalAfterDiscount(1000, 1001)).toBe(0)
    expect(totalAfterDiscount(1000, 1000)).toBe(0)
    expect(totalAfterDiscount(1000, 250)).toBe(750)
    expect(totalAfterDiscount(1000, 0)).toBe(1000)
  })

  it('product discounts first, then the balance', () => {
    const lines = [line(44900, 2, { discountPrice: 40410 }), line(8900, 1)]
    const t = cartTotals(lines, 10000)
    expect(t.subtotal).toBe(98700)
    expect(t.discount).toBe(2 * 4490)
    expect(t.total).toBe(98700 - 8980)
    expect(t.balanceUsed).toBe(10000)
    expect(t.toPay).toBe(98700 - 8980 - 10000)
    expect(t.units).toBe(3)
    // a balance larger than the total pays all of it, never below zero
    expect(cartTotals(lines, 10_000_000)).toMatchObject({ balanceUsed: 89720, toPay: 0 })
  })

  it('Steam: commission added on top of the amount', () => {
    expect(steamTotals(50000, 800)).toEqual({ commission: 4000, total: 54000 })
    expect(steamTotals(0, 800)).toEqual({ commission: 0, total: 0 })
  })

  it('clamps a quantity into the product bounds, 0 meaning no line', () => {
    expect(clampQuantity(0, 2, 20)).toBe(0)
    expect(clampQuantity(1, 2, 20)).toBe(2)
    expect(clampQuantity(25, 2, 20)).toBe(20)
    expect(clampQuantity(3.7, 2, 20)).toBe(3)
    expect(clampQuantity(Number.NaN, 2, 20)).toBe(0)
  })
})

const product = (id: number, over: Record<string, unknown> = {}) => ({
  resourcetype: 'SupplyProduct' as const,
  id,
  game: 1,
  title: `P${id}`,
  price: '100.00',
  picture: '',
  min_quantity: 1,
  max_quantity: 5,
  is_active: true,
  discount_price: null,
  discount_percent: 0,
  ...over,
})

const supplyWire = (over: Record<string, unknown> = {}) =>
  ({
    resourcetype: 'SupplyGame',
    id: 1,
    title: 'G',
    detail_title: '',
    detail_description: '',
    logo: '',
    created: '2026-01-01T00:00:00Z',
    is_auth_required: false,
    discount_percent: 0,
    is_active: true,
    product_preview_name: '',
    product_preview_icon: '',
    tags: [],
    products: [
      product(1),
      product(2, { min_quantity: 2, max_quantity: 3, discount_price: '90.00' }),
      product(3, { is_active: false }),
    ],
    servers: [
      { id: 7, name: 'Европа' },
      { id: 8, name: 'Азия' },
    ],
    is_server_needed: true,
    is_server_enum: true,
    ...over,
  }) as unknown as GameWire

describe('game view model (snake_case → camelCase, money in kopecks)', () => {
  it('maps a supply game with its servers and products', () => {
    const game = toGame(supplyWire())
    expect(game).toMatchObject({ kind: 'SupplyGame', isServerNeeded: true, isServerEnum: true })
    expect(game.servers).toEqual([
      { id: 7, name: 'Европа' },
      { id: 8, name: 'Азия' },
    ])
    expect(game.products[1]).toMatchObject({
      price: 10000,
      discountPrice: 9000,
      unitPrice: 9000,
      minQuantity: 2,
    })
    expect(toCartLines(game.products, { 2: 2 })[1]).toEqual({
      data: { id: 2, isActive: true, price: 10000, discountPrice: 9000 },
      amount: 2,
    })
  })

  it('raises on a resourcetype it does not know', () => {
    expect(() => toGame(supplyWire({ resourcetype: 'ChessGame' }))).toThrow(/Unknown game resourcetype/)
  })
})

describe('the shared order-form schema (§5)', () => {
  // the consent box has its own test below; the others are about the rest of the form
  const supply = { ...rulesFor(toGame(supplyWire()), { signedIn: false }), consentRequired: false }
  const png = () => new File([new Uint8Array([137, 80, 78, 71])], 'a.png', { type: 'image/png' })

  it('derives the rules from the game and the visitor', () => {
    expect(supply).toMatchObject({
      kind: 'SupplyGame',
      emailRequired: true,
      server: { mode: 'enum', ids: [7, 8] },
    })
    // inactive products are not on the form
    expect(supply.products.map((p) => p.id)).toEqual([1, 2])
    expect(rulesFor(toGame(supplyWire()), { signedIn: true }).emailRequired).toBe(false)
    expect(rulesFor(toGame(supplyWire({ is_auth_required: true })), { signedIn: false }).emailRequired).toBe(
      false,
    )
    expect(rulesFor(toGame(supplyWire({ is_server_enum: false })), { signedIn: false }).server).toEqual({
      mode: 'custom',
    })
    expect(rulesFor(toGame(supplyWire({ is_server_needed: false })), { signedIn: false }).server).toEqual({
      mode: 'none',
    })
  })

  it('raises the three missing-field flags with their message keys', () => {
    const standoff: OrderFormRules = { ...supply, kind: 'StandoffGame', server: { mode: 'none' } }
    const r = validateOrderForm(standoff, { [qtyField(1)]: '1', [FIELD.surplus]: '0.05' })
    expect(r.ok).toBe(false)
    if (r.ok) return
    expect(r.errors[FIELD.email]?.key).toBe('top_up_balance.errors.mail_is_missing')
    expect(r.errors[FIELD.userId]?.key).toBe('top_up_balance.errors.user_id_is_missing')
    expect(r.errors[FIELD.avatar]?.key).toBe('top_up_balance.errors.avatar_is_missing')
    expect(missingFlags(r.errors)).toEqual({
      mailIsMissing: true,
      userIdIsMissing: true,
      avatarIsMissing: true,
    })
  })

  it('a repeated Standoff order supplies the avatar', () => {
    const standoff: OrderFormRules = {
      ...supply,
      kind: 'StandoffGame',
      server: { mode: 'none' },
      avatarSupplied: true,
    }
    const r = validateOrderForm(standoff, {
      [qtyField(1)]: '1',
      [FIELD.surplus]: '0.05',
      [FIELD.userId]: '42',
      [FIELD.email]: 'a@b.ru',
      [FIELD.repeatOrderId]: '11111111-1111-4111-8111-111111111111',
    })
    expect(r).toMatchObject({ ok: true, payload: { kind: 'StandoffGame', avatar: null } })
  })

  it('sends only lines above zero, and refuses an empty cart', () => {
    const ok = validateOrderForm(supply, {
      [qtyField(1)]: '3',
      [qtyField(2)]: '0',
      [FIELD.userId]: ' 700 ',
      [FIELD.serverId]: '8',
      [FIELD.email]: 'buyer@example.com',
    })
    expect(ok).toEqual({
      ok: true,
      payload: {
        kind: 'SupplyGame',
        body: {
          products: [{ product_id: 1, quantity: 3 }],
          email: 'buyer@example.com',
          supply_channel_user_id: '700',
          supply_channel_server: 8,
        },
      },
    })
    const empty = validateOrderForm(supply, {
      [FIELD.userId]: '1',
      [FIELD.serverId]: '7',
      [FIELD.email]: 'a@b.ru',
    })
    expect(empty.ok ? null : empty.errors[FIELD.products]?.key).toBe(MESSAGE.emptyCart)
  })

  it('refuses quantities outside the product bounds, with the bounds in the message', () => {
    const base = { [FIELD.userId]: '1', [FIELD.serverId]: '7', [FIELD.email]: 'a@b.ru' }
    for (const q of ['1', '4']) {
      const r = validateOrderForm(supply, { ...base, [qtyField(2)]: q })
      expect(r.ok ? null : r.errors[qtyField(2)]).toEqual({
        key: MESSAGE.quantityRange,
        params: { min: 2, max: 3, title: 'P2' },
      })
    }
    const notInt = validateOrderForm(supply, { ...base, [qtyField(1)]: '1.5' })
    expect(notInt.ok ? null : notInt.errors[qtyField(1)]?.key).toBe(MESSAGE.quantityInvalid)
    expect(validateOrderForm(supply, { ...base, [qtyField(2)]: '3' }).ok).toBe(true)
  })

  it('checks the server (from the list, or free text) and the email format', () => {
    const base = { [qtyField(1)]: '1', [FIELD.userId]: '1', [FIELD.email]: 'a@b.ru' }
    const wrongServer = validateOrderForm(supply, { ...base, [FIELD.serverId]: '99' })
    expect(wrongServer.ok ? null : wrongServer.errors[FIELD.serverId]?.key).toBe(MESSAGE.serverMissing)
    const custom = {
      ...rulesFor(toGame(supplyWire({ is_server_enum: false })), { signedIn: false }),
      consentRequired: false,
    }
    const r = validateOrderForm(custom, { ...base, [FIELD.serverCustomId]: '2041' })
    expect(
      r.ok && r.payload.kind === 'SupplyGame' ? r.payload.body.supply_channel_server_custom_id : null,
    ).toBe('2041')
    const badMail = validateOrderForm(supply, { ...base, [FIELD.serverId]: '7', [FIELD.email]: 'nope' })
    expect(badMail.ok ? null : badMail.errors[FIELD.email]?.key).toBe(MESSAGE.mailInvalid)
  })

  it('signed-in buyers may leave the email empty (the account email is used)', () => {
    const rules = rulesFor(toGame(supplyWire()), { signedIn: true })
    const r = validateOrderForm(rules, { [qtyField(1)]: '1', [FIELD.userId]: '1', [FIELD.serverId]: '7' })
    expect(r.ok).toBe(true)
    if (r.ok) expect(r.payload.body).not.toHaveProperty('email')
  })

  it('Standoff: the surplus is 0.00–0.23 in steps of 0.01 and the avatar must be a small image', () => {
    const standoff: OrderFormRules = { ...supply, kind: 'StandoffGame', server: { mode: 'none' } }
    const base = { [qtyField(1)]: '1', [FIELD.userId]: '42', [FIELD.email]: 'a@b.ru', [FIELD.avatar]: png() }
    for (const s of ['0.00', '0.09', '0.23'])
      expect(validateOrderForm(standoff, { ...base, [FIELD.surplus]: s }).ok).toBe(true)
    for (const s of ['0.24', '0.5', '1.00', '-0.01', '']) {
      expect(validateOrderForm(standoff, { ...base, [FIELD.surplus]: s }).ok).toBe(false)
    }
    const text = new File(['hello'], 'a.txt', { type: 'text/plain' })
    const big = new File([new Uint8Array(AVATAR_MAX_BYTES + 1)], 'big.png', { type: 'image/png' })
    const notImage = validateOrderForm(standoff, { ...base, [FIELD.surplus]: '0.01', [FIELD.avatar]: text })
    expect(notImage.ok ? null : notImage.errors[FIELD.avatar]?.key).toBe(MESSAGE.avatarNotImage)
    const tooBig = validateOrderForm(standoff, { ...base, [FIELD.surplus]: '0.01', [FIELD.avatar]: big })
    expect(tooBig.ok ? null : tooBig.errors[FIELD.avatar]?.key).toBe(MESSAGE.avatarTooLarge)
    const ok = validateOrderForm(standoff, { ...base, [FIELD.surplus]: '0.07' })
    expect(ok).toMatchObject({
      ok: true,
      payload: {
        body: { game_account_id: '42', surplus: '0.07', products: [{ product_id: 1, quantity: 1 }] },
      },
    })
  })

  it('Steam: account id and an amount within the bounds, sent as a wire amount', () => {
    const steam: OrderFormRules = {
      ...supply,
      kind: 'Steam',
      products: [],
      server: { mode: 'none' },
      steamAmount: { min: 10000, max: 5000000 },
    }
    const missing = validateOrderForm(steam, { [FIELD.email]: 'a@b.ru', [FIELD.amount]: '500' })
    expect(missing.ok ? null : missing.errors[FIELD.steamAccountId]?.key).toBe(MESSAGE.userIdMissing)
    const low = validateOrderForm(steam, {
      [FIELD.email]: 'a@b.ru',
      [FIELD.steamAccountId]: 'x',
      [FIELD.amount]: '99,99',
    })
    expect(low.ok ? null : low.errors[FIELD.amount]).toEqual({
      key: MESSAGE.amountRange,
      // the shopper's money format, as every other amount on screen
      params: { min: '100,00\u00a0₽', max: '50\u202f000,00\u00a0₽' },
    })
    const bad = validateOrderForm(steam, {
      [FIELD.email]: 'a@b.ru',
      [FIELD.steamAccountId]: 'x',
      [FIELD.amount]: '1e3',
    })
    expect(bad.ok ? null : bad.errors[FIELD.amount]?.key).toBe(MESSAGE.amountInvalid)
    const ok = validateOrderForm(steam, {
      [FIELD.email]: 'a@b.ru',
      [FIELD.steamAccountId]: 'gaben',
      [FIELD.amount]: '250,5',
    })
    expect(ok).toEqual({
      ok: true,
      payload: { kind: 'Steam', body: { amount: '250.50', steam_account_id: 'gaben', email: 'a@b.ru' } },
    })
  })

  it('a guest ticks the consent box (152-ФЗ) and the API is told; a signed-in buyer is not asked', () => {
    const guest: OrderFormRules = {
      ...rulesFor(toGame(supplyWire()), { signedIn: false }),
      kind: 'PUBGGame',
      server: { mode: 'none' },
    }
    expect(guest.consentRequired).toBe(true)
    const input = { [qtyField(1)]: '1', [FIELD.email]: 'a@b.ru' }
    expect(validateOrderForm(guest, input)).toEqual({
      ok: false,
      errors: { [FIELD.consent]: { key: MESSAGE.consentMissing } },
    })
    expect(validateOrderForm(guest, { ...input, [FIELD.consent]: 'on' })).toEqual({
      ok: true,
      payload: {
        kind: 'PUBGGame',
        body: { products: [{ product_id: 1, quantity: 1 }], email: 'a@b.ru', personal_data_consent: true },
      },
    })
    const member = rulesFor(toGame(supplyWire()), { signedIn: true })
    expect(member.consentRequired).toBe(false)
  })

  it('PUBG needs nothing but products (and the email for guests)', () => {
    const pubg: OrderFormRules = { ...supply, kind: 'PUBGGame', server: { mode: 'none' } }
    expect(validateOrderForm(pubg, { [qtyField(1)]: '2', [FIELD.email]: 'a@b.ru' })).toEqual({
      ok: true,
      payload: { kind: 'PUBGGame', body: { products: [{ product_id: 1, quantity: 2 }], email: 'a@b.ru' } },
    })
  })
})
