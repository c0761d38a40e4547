// The contract checker the API tests run every exchange through (tests/helpers/contract.ts,
// issue 44): it must catch what it is there for, or the suite could not fail.
import { describe, expect, it } from 'vitest'
import { checkExchange } from '#tests/helpers/contract-recorder'
import { operationOf, requestProblems, responseProblem } from '#tests/helpers/contract'

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

describe('the contract checker', () => {
  const games = operationOf('GET', '/api/games/')!.op
  const game = operationOf('GET', '/api/games/12/')!

  it('finds the operation of a path, literal paths before templates', () => {
    expect(game.op.path).toBe('/api/games/{id}/')
    expect(game.params).toEqual({ id: '12' })
    expect(operationOf('POST', '/api/orders/pubg/')!.op.path).toBe('/api/orders/pubg/')
    expect(operationOf('GET', '/api/nothing/')).toBeNull()
  })

  it('refuses a request off the contract: a limit out of range, an id of ten digits, a body missing its fields', () => {
    expect(requestProblems(games, {}, { method: 'GET', url: '/api/games/?limit=20', headers: {} })).toEqual(
      [],
    )
    expect(
      requestProblems(games, {}, { method: 'GET', url: '/api/games/?limit=0', headers: {} }),
    ).toHaveLength(1)
    expect(
      requestProblems(games, {}, { method: 'GET', url: '/api/games/?limit=101', headers: {} }),
    ).toHaveLength(1)
    const long = operationOf('GET', '/api/games/1234567890/')!
    expect(
      requestProblems(long.op, long.params, { method: 'GET', url: '/api/games/1234567890/', headers: {} }),
    ).toHaveLength(1)
    const create = operationOf('POST', '/api/orders/pubg/')!
    const sent = { method: 'POST', url: '/api/orders/pubg/', headers: { 'content-type': 'application/json' } }
    expect(requestProblems(create.op, {}, { ...sent, body: '{}' })).toHaveLength(1)
    expect(
      requestProblems(create.op, {}, { ...sent, body: '{"products":[{"product_id":1,"quantity":1}]}' }),
    ).toEqual([])
  })

  it('refuses an answer off the contract: an undeclared status, another content type, a body off its schema', () => {
    expect(
      responseProblem(game.op, {
        status: 404,
        contentType: 'application/json',
        text: '{"detail":"x","code":"y"}',
      }),
    ).toBeNull()
    expect(responseProblem(game.op, { status: 418, contentType: 'application/json', text: '{}' })).toMatch(
      /undeclared status 418/,
    )
    expect(responseProblem(game.op, { status: 404, contentType: 'text/html', text: '<p>' })).toMatch(
      /text\/html/,
    )
    expect(
      responseProblem(game.op, { status: 404, contentType: 'application/json', text: '{"detail":1}' }),
    ).toMatch(/does not match/)
  })

  it('fails the test that got an answer off the contract', async () => {
    const sent = { method: 'GET', url: '/api/games/12/', headers: {} }
    await expect(checkExchange(sent, json(418, {}))).rejects.toThrow(/undeclared status 418/)
    await expect(
      checkExchange(sent, json(404, { detail: 'нет', code: 'not_found' })),
    ).resolves.toBeUndefined()
    // a path that is no operation may only be the API's own 404 or 405
    await expect(checkExchange({ ...sent, url: '/api/nothing/' }, json(200, {}))).rejects.toThrow(
      /no operation/,
    )
  })
})
