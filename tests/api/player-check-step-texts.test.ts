// Review finding L6 (issue 50): the game page sends the player check's texts only when its catalogue
// read says the game checks players. When the owner switches the check on after the page was read,
// the order's confirmation step came back with raw message keys. The step's answer now carries its
// own texts, made on the server: Russian whatever the page was sent.
import type { AppLoadContext } from '@remix-run/node'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { games, products } from '#api/db/schema'
import {
  type ActionResult,
  productAction,
  productLoader,
} from '#app/components/order-form/product-page.server'
import { FIELD, qtyField } from '#app/lib/order-form/fields'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { hex } from './payments-fixtures'

let api: TestApi
beforeAll(async () => {
  api = await createTestApi()
})
afterAll(() => api.close())

const ctx = () =>
  ({
    api: { baseUrl: 'http://shop.internal', fetch: async (req: Request) => api.app.fetch(req) },
    clientAddress: '127.0.0.1',
  }) as AppLoadContext
const ORIGIN = 'http://localhost:3000'

describe('the player confirmation step when the check was switched on after the page was read (L6)', () => {
  it('answers its heading, question, hint and button in Russian', async () => {
    const [g] = await api.db
      .insert(games)
      .values({ kind: 'SupplyGame', title: `Supply ${hex()}`, supplier: 'manual', isServerNeeded: false })
      .returning()
    const [p] = await api.db
      .insert(products)
      .values({ gameId: g!.id, kind: 'SupplyProduct', title: `P ${hex(2)}`, price: 1000 })
      .returning()
    const page = await productLoader({
      request: new Request(`${ORIGIN}/products/${g!.id}`),
      params: { id: String(g!.id) },
      context: ctx(),
    })
    // the page as read: no check, so its messages leave the check's texts out
    expect(page.data.game.playerCheck).toBeFalsy()

    await api.db.update(games).set({ playerCheck: 'sandbox' }).where(eq(games.id, g!.id))
    const form = new FormData()
    form.set(FIELD.idempotencyKey, crypto.randomUUID())
    form.set(qtyField(p!.id), '1')
    form.set(FIELD.userId, '100000001')
    form.set(FIELD.email, `l6-${hex()}@example.com`)
    form.set(FIELD.consent, 'on')
    const answer = (await productAction({
      request: new Request(`${ORIGIN}/products/${g!.id}`, { method: 'POST', body: form }),
      params: { id: String(g!.id) },
      context: ctx(),
    })) as unknown as { data: ActionResult }
    const player = answer.data.player
    expect(player?.state).toBe('found')
    expect(player?.texts).toEqual({
      heading: 'Проверьте игрока',
      question: 'Игрок: Тестовый игрок — всё верно?',
      changeHint: 'Не тот игрок? Исправьте ID выше и снова нажмите «Перейти к оплате».',
      confirm: 'Да, всё верно — к оплате',
    })
  })
})
