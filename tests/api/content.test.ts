import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { contacts, faq, games } from '#api/db/schema'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'

type ErrorBody = { detail: string; code: string }
type FaqItem = { id: number; text: string; answer: string; game: number; order: number }

let api: TestApi
let gameId: number
let hiddenGameId: number
beforeAll(async () => {
  api = await createTestApi()
  // Our own game whose FAQ rows are inserted out of order, so the ordering is really tested.
  const [game] = await api.db
    .insert(games)
    .values({ kind: 'PUBGGame', title: 'FAQ test game' })
    .returning({ id: games.id })
  gameId = game!.id
  await api.db.insert(faq).values([
    { gameId, text: 'Третий?', answer: 'В', order: 30 },
    { gameId, text: 'Первый?', answer: 'А', order: 10 },
    { gameId, text: 'Второй?', answer: 'Б', order: 20 },
  ])
  const [hidden] = await api.db
    .insert(games)
    .values({ kind: 'PUBGGame', title: 'Hidden game', isActive: false })
    .returning({ id: games.id })
  hiddenGameId = hidden!.id
  await api.db.insert(faq).values({ gameId: hiddenGameId, text: 'Скрытый?', answer: 'Да', order: 1 })
})
afterAll(() => api.close())

describe('GET /api/articles/{slug}/', () => {
  it.each(['privacy-policy', 'user-agreement', 'TextBlock'])(
    'returns the seeded %s article',
    async (slug) => {
      const r = await api.call<{ slug: string; header: string; text: string }>(
        'GET',
        `/api/articles/${slug}/`,
      )
      expect(r.status).toBe(200)
      expect(Object.keys(r.body).sort()).toEqual(['header', 'slug', 'text'])
      expect(r.body.slug).toBe(slug)
      expect(r.body.header.length).toBeGreaterThan(3)
      expect(r.body.text).toContain('<p>')
    },
  )

  it('answers an unknown slug with a Russian 404 naming it', async () => {
    const r = await api.call<ErrorBody>('GET', '/api/articles/no-such-page/')
    expect(r.status).toBe(404)
    expect(r.body.code).toBe('article_not_found')
    expect(r.body.detail).toBe('Статья «no-such-page» не найдена')
  })

  it('matches the slug case-sensitively', async () => {
    expect((await api.call('GET', '/api/articles/textblock/')).status).toBe(404)
  })

  it('refuses a slug with characters outside the allowed set with a 400', async () => {
    const r = await api.call<ErrorBody>('GET', `/api/articles/${encodeURIComponent("a'; drop")}/`)
    expect(r.status).toBe(400)
    expect(r.body.code).toBe('validation_error')
    expect(r.body.detail).toMatch(/slug/)
  })
})

describe('GET /api/contacts/', () => {
  it('returns the contact as one object with the spec fields', async () => {
    const r = await api.call<Record<string, string>>('GET', '/api/contacts/')
    expect(r.status).toBe(200)
    expect(Object.keys(r.body).sort()).toEqual(['address', 'company_id', 'company_name', 'extra', 'inn'])
    const [row] = await api.db.select().from(contacts)
    expect(r.body).toEqual({
      company_name: row!.companyName,
      address: row!.address,
      inn: row!.inn,
      company_id: row!.companyId,
      extra: row!.extra,
    })
  })
})

describe('GET /api/faq/{game_pk}/', () => {
  it('lists the game FAQ ordered by `order`', async () => {
    const r = await api.call<FaqItem[]>('GET', `/api/faq/${gameId}/`)
    expect(r.status).toBe(200)
    expect(r.body.map((f) => f.text)).toEqual(['Первый?', 'Второй?', 'Третий?'])
    expect(r.body.map((f) => f.order)).toEqual([10, 20, 30])
    expect(r.body).toEqual(
      r.body.map(() => expect.objectContaining({ game: gameId, id: expect.any(Number) })),
    )
    expect(r.body[0]!.answer).toBe('А')
  })

  it('serves the seeded FAQ of a demo game', async () => {
    const [pubg] = await api.db.select().from(games).where(eq(games.title, 'PUBG Mobile'))
    const r = await api.call<FaqItem[]>('GET', `/api/faq/${pubg!.id}/`)
    expect(r.status).toBe(200)
    expect(r.body.length).toBeGreaterThanOrEqual(3)
  })

  it('answers an unknown or inactive game with a 404', async () => {
    for (const id of [999999, hiddenGameId]) {
      const r = await api.call<ErrorBody>('GET', `/api/faq/${id}/`)
      expect(r.status).toBe(404)
      expect(r.body).toMatchObject({ code: 'game_not_found', detail: 'Игра не найдена' })
    }
  })

  it('answers a non-numeric game id with a Russian 400', async () => {
    const r = await api.call<ErrorBody>('GET', '/api/faq/abc/')
    expect(r.status).toBe(400)
    expect(r.body.detail).toBe('game_pk: ожидается число')
  })
})
