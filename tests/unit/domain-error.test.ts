import { describe, expect, it } from 'vitest'
import { DOMAIN_STATUS, type DomainCode, DomainError, refuse, refuseField } from '#api/lib/domain-error'
import { ApiError, fail, fieldError } from '#api/lib/errors'

const codes = Object.keys(DOMAIN_STATUS) as DomainCode[]

describe('domain errors: services name the rule, one table gives the status', () => {
  it('answers exactly what fail() and fieldError() answered for every code (status and body)', () => {
    for (const code of codes) {
      const status = DOMAIN_STATUS[code]
      const plain = refuse(code, { currency: 'USD', min: '10.00' })
      const before = fail(status, code, { currency: 'USD', min: '10.00' })
      expect([plain.status, plain.body]).toEqual([before.status, before.body])
      const onField = refuseField('email', code)
      const beforeField = fieldError('email', code)
      expect(onField.body).toEqual(beforeField.body)
      expect(onField.status).toBe(status)
    }
  })

  it('is an ApiError, so the code that catches those (settlement, re-query) still does', () => {
    const e = refuse('order_total_changed')
    expect(e).toBeInstanceOf(DomainError)
    expect(e).toBeInstanceOf(ApiError)
    expect([e.status, e.code]).toEqual([409, 'order_total_changed'])
    expect(refuse('order_not_found').status).toBe(404)
    expect(refuseField('currency', 'payment_currency_not_supported', { currency: 'XYZ' }).body).toEqual({
      code: 'payment_currency_not_supported',
      detail: expect.stringContaining('XYZ'),
      fields: { currency: [expect.stringContaining('XYZ')] },
    })
  })
})
