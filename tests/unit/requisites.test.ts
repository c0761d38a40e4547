// The registration number's label by legal form (issue 47): ОГРНИП for an individual entrepreneur.
import { describe, expect, it } from 'vitest'
import { isSoleTraderNumber } from '../../shared/requisites'

describe('isSoleTraderNumber', () => {
  it('is true for an ОГРНИП (15 digits) only', () => {
    expect(isSoleTraderNumber('304500116000157')).toBe(true)
    expect(isSoleTraderNumber(' 304500116000157 ')).toBe(true)
    expect(isSoleTraderNumber('1027700132195')).toBe(false)
    expect(isSoleTraderNumber('')).toBe(false)
    expect(isSoleTraderNumber('30450011600015')).toBe(false)
    expect(isSoleTraderNumber('3045001160001570')).toBe(false)
    expect(isSoleTraderNumber('30450011600015a')).toBe(false)
  })
})
