// Each player-lookup adapter against its local fake: the signature its provider documents, found,
// not found, a supplier that is slow or broken, and a wrong key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apigamesLookup, signApigames } from '#api/services/player-check/apigames'
import { sandboxLookup } from '#api/services/player-check/sandbox'
import { signSmileOne, smileOneLookup } from '#api/services/player-check/smile-one'
import type { LookupContext } from '#api/services/player-check/types'
import {
  FAKE_APIGAMES,
  FAKE_SMILE,
  type FakeSuppliers,
  PLAYERS,
  startFakeSuppliers,
} from '#tests/fakes/player-suppliers'

let fake: FakeSuppliers
const ctx = (timeoutMs = 3000): LookupContext => ({ fetch: globalThis.fetch, timeoutMs })

beforeAll(async () => {
  fake = await startFakeSuppliers({ slowMs: 5000 })
})
afterAll(() => fake.close())

describe('sandbox', () => {
  const ask = (userId: string) => sandboxLookup.lookup({ userId, server: null }, null, ctx())
  it('knows the test player, refuses 100000000 and names other 6–12 digit ids', async () => {
    expect(await ask('100000001')).toEqual({ outcome: 'found', nickname: 'Тестовый игрок' })
    expect(await ask('100000000')).toEqual({ outcome: 'not_found' })
    expect(await ask('123456')).toEqual({ outcome: 'found', nickname: 'Игрок 123456' })
    expect(await ask('123456789012')).toEqual({ outcome: 'found', nickname: 'Игрок 123456789012' })
  })
  it('calls anything else malformed', async () => {
    for (const id of ['12345', '1234567890123', 'abc12345', '12 345 678', ''])
      expect(await ask(id)).toEqual({ outcome: 'malformed' })
  })
})

describe('Smile One role check', () => {
  const smile = () => smileOneLookup({ ...FAKE_SMILE, apiUrl: `${fake.origin}/smileone/smilecoin/api` })

  it('signs as documented: sorted k=v& pairs plus the key, MD5 twice', () => {
    // md5(md5("a=1&b=2&KEY")), computed with Python's hashlib
    expect(signSmileOne({ b: '2', a: '1' }, 'KEY')).toBe('1b93894713dcb23fad1bca8603eb62f2')
  })

  it('finds a player with the server as zoneid and the game as product/productid', async () => {
    const before = fake.calls.length
    const r = await smile().lookup({ userId: PLAYERS.found, server: '2041' }, 'mobilelegends/13', ctx())
    expect(r).toEqual({ outcome: 'found', nickname: 'Smile Hero 2041' })
    const call = fake.calls[before]!
    expect(call.signatureOk).toBe(true)
    expect(call.params).toMatchObject({
      userid: PLAYERS.found,
      zoneid: '2041',
      product: 'mobilelegends',
      productid: '13',
    })
  })

  it('reports a missing role as not found', async () => {
    expect(
      await smile().lookup({ userId: PLAYERS.missing, server: null }, 'mobilelegends/13', ctx()),
    ).toEqual({
      outcome: 'not_found',
    })
  })

  it('gives up on a slow supplier at the time limit', async () => {
    const started = Date.now()
    const r = await smile().lookup({ userId: PLAYERS.slow, server: null }, 'mobilelegends/13', ctx(200))
    expect(r).toEqual({ outcome: 'unavailable', reason: 'timeout' })
    expect(Date.now() - started).toBeLessThan(4500)
  })

  it('treats an error page and a refused signature as "not answering", never as not found', async () => {
    expect((await smile().lookup({ userId: PLAYERS.broken, server: null }, 'x/1', ctx())).outcome).toBe(
      'unavailable',
    )
    const wrongKey = smileOneLookup({
      ...FAKE_SMILE,
      key: 'other',
      apiUrl: `${fake.origin}/smileone/smilecoin/api`,
    })
    const r = await wrongKey.lookup({ userId: PLAYERS.found, server: null }, 'x/1', ctx())
    expect(r.outcome).toBe('unavailable')
    expect(fake.calls.at(-1)?.signatureOk).toBe(false)
  })
})

describe('apigames cek-username', () => {
  const api = (secretKey = FAKE_APIGAMES.secretKey) =>
    apigamesLookup({ merchantId: FAKE_APIGAMES.merchantId, secretKey, apiUrl: `${fake.origin}/apigames` })

  it('signs as documented: MD5 of merchant id then secret key', () => {
    // computed with Python's hashlib
    expect(signApigames('M0001TEST', 'apigames-secret-456')).toBe('2b731aa8b6a3f5a61676b96c8bfd245e')
  })

  it('finds a player: signature MD5(merchant + key), game code in the path, server appended to the id', async () => {
    const before = fake.calls.length
    const r = await api().lookup({ userId: PLAYERS.found, server: '2041' }, 'mobilelegend', ctx())
    expect(r).toEqual({ outcome: 'found', nickname: 'Api Hero' })
    const call = fake.calls[before]!
    expect(call.signatureOk).toBe(true)
    expect(call.params).toMatchObject({ game: 'mobilelegend', user_id: `${PLAYERS.found}2041` })
  })

  it('reports is_valid=false as not found', async () => {
    expect(await api().lookup({ userId: PLAYERS.missing, server: null }, 'freefire', ctx())).toEqual({
      outcome: 'not_found',
    })
  })

  it('gives up on a slow supplier at the time limit', async () => {
    const r = await api().lookup({ userId: PLAYERS.slow, server: null }, 'freefire', ctx(200))
    expect(r).toEqual({ outcome: 'unavailable', reason: 'timeout' })
  })

  it('treats HTTP 500, a refused signature and an unreachable host as "not answering"', async () => {
    expect((await api().lookup({ userId: PLAYERS.broken, server: null }, 'freefire', ctx())).outcome).toBe(
      'unavailable',
    )
    expect(
      (await api('wrong').lookup({ userId: PLAYERS.found, server: null }, 'freefire', ctx())).outcome,
    ).toBe('unavailable')
    const gone = apigamesLookup({ ...FAKE_APIGAMES, apiUrl: 'http://127.0.0.1:9' })
    expect(await gone.lookup({ userId: PLAYERS.found, server: null }, 'freefire', ctx())).toEqual({
      outcome: 'unavailable',
      reason: 'network error',
    })
  })
})
