import { describe, expect, it } from 'vitest'
import { formBody, formSpec, fromScaled, toDateTimeLocal } from '#app/lib/admin/form-body'

const fd = (entries: Record<string, string>) => {
  const f = new FormData()
  for (const [k, v] of Object.entries(entries)) f.set(k, v)
  return f
}

describe('back-office form body', () => {
  it('turns form fields into the API’s JSON types', () => {
    const body = formBody(
      fd({ title: ' PUBG ', price: '199.00', min_quantity: '2', tags: 'uc, top ,', is_active: 'on' }),
      {
        title: 'text',
        price: 'money',
        discount_price: 'nullableMoney',
        min_quantity: 'int',
        max_uses: 'nullableInt',
        tags: 'tags',
        is_active: 'bool',
        is_main: 'bool',
        expires_at: 'nullableDateTime',
      },
    )
    expect(body).toEqual({
      title: ' PUBG ',
      price: '199.00',
      discount_price: null,
      min_quantity: 2,
      max_uses: null,
      tags: ['uc', 'top'],
      is_active: true,
      is_main: false,
      expires_at: null,
    })
  })

  it('passes what is not a number on for the API to refuse with its message', () => {
    expect(formBody(fd({ n: '1.5', m: 'abc' }), { n: 'int', m: 'nullableInt' })).toEqual({
      n: '1.5',
      m: 'abc',
    })
  })

  it("reads a datetime-local value in the shop's time zone and back (decision 136)", () => {
    expect(formBody(fd({ e: '2026-12-31T23:59' }), { e: 'nullableDateTime' })).toEqual({
      e: '2026-12-31T20:59:00.000Z',
    })
    expect(formBody(fd({ e: '2026-12-31T23:59' }), { e: 'nullableDateTime' }, 'Asia/Yekaterinburg')).toEqual({
      e: '2026-12-31T18:59:00.000Z',
    })
    expect(toDateTimeLocal('2026-12-31T20:59:00.000Z', 'Europe/Moscow')).toBe('2026-12-31T23:59')
    expect(toDateTimeLocal(null, 'Europe/Moscow')).toBe('')
  })

  it('leaves empty optional fields out', () => {
    expect(formBody(fd({ price: ' ', order: '' }), { price: 'money', order: 'int', x: 'optText' })).toEqual(
      {},
    )
  })

  it('turns a percent into basis points and a rate into millionths, exactly', () => {
    const spec = { fee: 'percentBp', rate: 'micro', none: 'percentBp' } as const
    expect(formBody(fd({ fee: '3,5', rate: '5.6', none: '' }), spec)).toEqual({ fee: 350, rate: 5_600_000 })
    expect(formBody(fd({ fee: '0.07', rate: '0.035' }), spec)).toEqual({ fee: 7, rate: 35_000 })
    // malformed: left as typed so the API answers with its Russian message
    expect(formBody(fd({ fee: '3.555', rate: '-1' }), spec)).toEqual({ fee: '3.555', rate: '-1' })
    expect([fromScaled(350, 2), fromScaled(300, 2), fromScaled(35_000, 6), fromScaled(0, 2)]).toEqual([
      '3.5',
      '3',
      '0.035',
      '0',
    ])
  })

  it("gives the operation's body type, and a spec that does not fit it does not compile (tsc)", () => {
    const spec = formSpec('put', '/api/admin/settings/steam/', {
      commission_bp: 'percentBp',
      currency: 'text',
    })
    const body: { commission_bp: number; currency: string } = formBody(
      fd({ commission_bp: '3,5', currency: 'RUB' }),
      spec,
    )
    expect(body).toEqual({ commission_bp: 350, currency: 'RUB' })
    // @ts-expect-error: the body's commission is a number
    const commission: string = body.commission_bp
    expect(commission).toBe(350)
    // @ts-expect-error: the body has no field of that name
    formSpec('put', '/api/admin/settings/steam/', { commision_bp: 'percentBp' })
    // @ts-expect-error: a number field cannot take a text kind
    formSpec('put', '/api/admin/settings/steam/', { commission_bp: 'text' })
    // @ts-expect-error: a field that cannot be null cannot take a nullable kind
    formSpec('put', '/api/admin/settings/steam/', { currency: 'nullableText' })
  })
})
