// The ledger's refusals say what was wrong (api/src/services/balance/rules.ts): a caller's bug shows
// up in the log with the amount and the kind. Written against mutation-run survivors.
import { describe, expect, it } from 'vitest'
import { signedDelta } from '#api/services/balance/rules'

describe('signedDelta refusals', () => {
  it('name the amount, and the kind for a wrong sign', () => {
    expect(() => signedDelta('spend', 0)).toThrow('a balance entry needs a whole, non-zero amount: 0')
    expect(() => signedDelta('refund', 1.5)).toThrow('a balance entry needs a whole, non-zero amount: 1.5')
    expect(() => signedDelta('cashback', -5)).toThrow('a cashback entry takes a positive amount: -5')
  })
})
