import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { games } from '#api/db/schema'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'

let api: TestApi
beforeAll(async () => {
  api = await createTestApi({ env: { CATALOGUE_CACHE_SECONDS: '1' } })
})
afterAll(() => api.close())

describe('catalogue read cache', () => {
  it('serves a game page from memory for the configured seconds, then from the database', async () => {
    const [g] = await api.db.select().from(games).where(eq(games.isActive, true)).limit(1)
    const first = await api.call<{ title: string }>('GET', `/api/games/${g!.id}/`)
    expect(first.body.title).toBe(g!.title)
    await api.db.update(games).set({ title: 'Новое название' }).where(eq(games.id, g!.id))
    expect((await api.call<{ title: string }>('GET', `/api/games/${g!.id}/`)).body.title).toBe(g!.title)
    await new Promise((r) => setTimeout(r, 1100))
    expect((await api.call<{ title: string }>('GET', `/api/games/${g!.id}/`)).body.title).toBe(
      'Новое название',
    )
  })

  it('answers an unknown game with 404 through the cache too', async () => {
    expect((await api.call('GET', '/api/games/999999/')).status).toBe(404)
  })
})
