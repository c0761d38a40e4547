// The refund routing rule (decision 110): only the provider's `canceled`, or a refusal proving no
// refund exists, hands a refund to a person; a refund the provider holds is waited for whatever it
// answers; an unknown outcome is retried, never re-routed.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { nextRefundStep, type ProviderAnswer } from '#api/services/refunds/routing'

describe('nextRefundStep', () => {
  it('follows the provider’s state', () => {
    for (const held of [true, false])
      for (const left of [true, false]) {
        expect(nextRefundStep({ state: 'succeeded' }, held, left)).toBe('complete')
        expect(nextRefundStep({ state: 'canceled' }, held, left)).toBe('person')
        expect(nextRefundStep({ state: 'pending' }, held, left)).toBe('wait')
      }
  })

  it('a refund the provider holds is waited for, whatever the error', () => {
    expect(nextRefundStep({ error: 'unknown' }, true, true)).toBe('wait')
    expect(nextRefundStep({ error: 'unknown' }, true, false)).toBe('wait')
    expect(nextRefundStep({ error: 'rejected' }, true, true)).toBe('wait')
    expect(nextRefundStep({ unavailable: true }, true, false)).toBe('wait')
  })

  it('nothing held: a proven refusal or no adapter goes to a person; an unknown outcome is retried, then waited for', () => {
    expect(nextRefundStep({ error: 'rejected' }, false, true)).toBe('person')
    expect(nextRefundStep({ error: 'rejected' }, false, false)).toBe('person')
    expect(nextRefundStep({ unavailable: true }, false, true)).toBe('person')
    expect(nextRefundStep({ error: 'unknown' }, false, true)).toBe('retry')
    expect(nextRefundStep({ error: 'unknown' }, false, false)).toBe('wait')
  })

  it('never reaches a person unless the provider canceled or proved nothing exists', () => {
    const answer: fc.Arbitrary<ProviderAnswer> = fc.oneof(
      fc.constantFrom('pending', 'succeeded', 'canceled').map((state) => ({ state }) as ProviderAnswer),
      fc.constantFrom('rejected', 'unknown').map((error) => ({ error }) as ProviderAnswer),
      fc.constant({ unavailable: true } as const),
    )
    fc.assert(
      fc.property(answer, fc.boolean(), fc.boolean(), (a, held, left) => {
        const step = nextRefundStep(a, held, left)
        const proven =
          ('state' in a && a.state === 'canceled') ||
          (!held && (('error' in a && a.error === 'rejected') || 'unavailable' in a))
        expect(step === 'person').toBe(proven)
      }),
    )
  })
})
