// The money lines of the mails (decision 113): each its own line, named for what it is, adding up
// to what the buyer was charged, for every order kind and payment path.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type FiguresInput, figuresAddUp, orderFigures } from '#api/services/mail/figures'

const base: FiguresInput = {
  kind: 'PUBGOrder',
  lines: [{ title: '60 UC', quantity: 2, unitPrice: 8900 }],
  steamAmount: null,
  title: 'PUBG Mobile',
  total: 17800,
  totalToPay: 17800,
  balanceUsed: 0,
  payment: { amount: 17800, currency: 'RUB' },
}

describe('orderFigures', () => {
  it('the Steam top-up of the finding: 1 000 + the shop’s 80 commission + the method’s 21,60 = 1 101,60', () => {
    const f = orderFigures({
      ...base,
      kind: 'SteamOrder',
      lines: [],
      steamAmount: 100000,
      total: 108000,
      totalToPay: 108000,
      payment: { amount: 110160, currency: 'RUB' },
    })
    expect(f).toEqual({
      figures: [
        { kind: 'steam', amount: 100000 },
        { kind: 'shop_commission', amount: 8000 },
        { kind: 'method_fee', amount: 2160 },
      ],
      charged: 110160,
      methodFee: 2160,
    })
    expect(figuresAddUp(f)).toBe(true)
  })

  it('lines with quantities, a promo, the balance and no payment (paid from the balance)', () => {
    const f = orderFigures({ ...base, totalToPay: 0, balanceUsed: 15000, payment: null })
    expect(f.figures).toEqual([
      { kind: 'item', title: '60 UC', quantity: 2, amount: 17800 },
      { kind: 'promo', amount: -2800 },
      { kind: 'balance_used', amount: -15000 },
    ])
    expect(f).toMatchObject({ charged: 0, methodFee: 0 })
    expect(figuresAddUp(f)).toBe(true)
  })

  it('an order without lines is its one item; a Steam order without commission has no such line', () => {
    expect(
      orderFigures({
        ...base,
        kind: 'StandoffOrder',
        lines: [],
        total: 5000,
        totalToPay: 5000,
        payment: { amount: 5000, currency: 'RUB' },
      }).figures,
    ).toEqual([{ kind: 'item', title: 'PUBG Mobile', amount: 5000 }])
    expect(
      orderFigures({
        ...base,
        kind: 'SteamOrder',
        lines: [],
        steamAmount: 5000,
        total: 5000,
        totalToPay: 5000,
        payment: null,
      }).figures,
    ).toEqual([{ kind: 'steam', amount: 5000 }])
    // only a Steam order reads its top-up amount
    expect(orderFigures({ ...base, kind: 'PUBGOrder', steamAmount: 5000 }).figures[0]).toMatchObject({
      kind: 'item',
    })
    // a Steam order's lines, when it has no top-up amount, are its lines
    expect(orderFigures({ ...base, kind: 'SteamOrder' }).figures[0]).toMatchObject({ kind: 'item' })
  })

  it('a payment in another currency counts as the order’s total (no rouble fee); a zero payment as none', () => {
    expect(orderFigures({ ...base, payment: { amount: 250, currency: 'USD' } })).toMatchObject({
      charged: 17800,
      methodFee: 0,
    })
    expect(orderFigures({ ...base, payment: { amount: 0, currency: 'RUB' } })).toMatchObject({
      charged: 17800,
    })
    expect(figuresAddUp({ figures: [{ kind: 'item', amount: 1 }], charged: 2, methodFee: 0 })).toBe(false)
  })

  it('always add up, whatever the kind, lines, promo, balance and fee', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('PUBGOrder', 'SteamOrder', 'StandoffOrder', 'MooGoldOrder', 'RokkyOrder'),
        fc.array(
          fc.record({
            title: fc.string(),
            quantity: fc.integer({ min: 1, max: 20 }),
            unitPrice: fc.integer({ min: 1, max: 1e6 }),
          }),
          { maxLength: 4 },
        ),
        fc.integer({ min: 0, max: 1e7 }),
        fc.integer({ min: 0, max: 1e6 }),
        fc.integer({ min: 0, max: 1e6 }),
        fc.integer({ min: 0, max: 1e5 }),
        fc.boolean(),
        (kind, lines, steam, discount, balance, fee, paid) => {
          const goods =
            kind === 'SteamOrder'
              ? steam + Math.round(steam * 0.08)
              : lines.reduce((s, l) => s + l.quantity * l.unitPrice, 0) || steam
          const total = goods
          const totalToPay = Math.max(0, total - Math.min(discount, total) - Math.min(balance, total))
          const balanceUsed = Math.min(balance, total)
          const f = orderFigures({
            kind,
            lines: kind === 'SteamOrder' ? [] : lines,
            steamAmount: kind === 'SteamOrder' ? steam : null,
            title: 'T',
            total,
            totalToPay,
            balanceUsed,
            payment: paid ? { amount: totalToPay + fee, currency: 'RUB' } : null,
          })
          expect(figuresAddUp(f)).toBe(true)
          expect(f.figures.filter((x) => x.kind === 'method_fee').length).toBe(
            paid && fee > 0 && totalToPay + fee > 0 ? 1 : 0,
          )
        },
      ),
    )
  })
})
