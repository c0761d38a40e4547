import { describe, expect, it } from 'vitest'
import { inRanges, isAddressOrCidr } from '#api/lib/address-ranges'
import { loadApiConfig } from '#api/env'

const config = (env: Record<string, string>) =>
  loadApiConfig(
    { NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(32), YOOKASSA_SHOP_ID: '1', YOOKASSA_SECRET_KEY: 's', ...env },
    { dataDir: '/tmp', port: 3000 },
  )

describe('YOOKASSA_NOTIFY_FROM', () => {
  it('defaults to YooKassa’s published ranges, edges included and excluded', () => {
    const ranges = config({}).yookassa!.notifyFrom
    for (const inside of [
      '185.71.76.0',
      '185.71.76.31',
      '185.71.77.5',
      '77.75.153.127',
      '77.75.156.11',
      '77.75.156.35',
      '77.75.154.200',
      '2a02:5180::1',
      '::ffff:185.71.76.1',
    ])
      expect(inRanges(inside, ranges), inside).toBe(true)
    for (const outside of [
      '185.71.76.32',
      '77.75.153.128',
      '77.75.156.12',
      '77.75.154.127',
      '2a02:5181::1',
      '127.0.0.1',
      'unknown',
      '',
    ])
      expect(inRanges(outside, ranges), outside).toBe(false)
  })

  it('takes a list of its own and refuses one that is not addresses', () => {
    expect(config({ YOOKASSA_NOTIFY_FROM: '127.0.0.1/32, ::1' }).yookassa!.notifyFrom).toEqual([
      '127.0.0.1/32',
      '::1',
    ])
    expect(() => config({ YOOKASSA_NOTIFY_FROM: '127.0.0.1/33' })).toThrow(/YOOKASSA_NOTIFY_FROM/)
    expect(() => config({ YOOKASSA_NOTIFY_FROM: 'yookassa.ru' })).toThrow(/YOOKASSA_NOTIFY_FROM/)
    expect(isAddressOrCidr('10.0.0.0/8')).toBe(true)
    expect(inRanges('::1', ['::1'])).toBe(true)
    expect(inRanges('10.1.2.3', ['10.0.0.0/8'])).toBe(true)
  })

  it('YooKassa is off without both keys', () => {
    expect(
      loadApiConfig(
        { NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(32), YOOKASSA_SHOP_ID: '1' },
        { dataDir: '/tmp', port: 3000 },
      ).yookassa,
    ).toBeNull()
  })
})
