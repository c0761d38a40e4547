// The demo catalogue as the e2e suite finds it: specs share one database with back-office specs
// that add games of their own, so a demo game is looked up by its title.
import { type APIRequestContext, expect } from '@playwright/test'

type Games = { results: Array<{ id: number; resourcetype: string; title: string }> }

/**
 * The demo catalogue's game of each kind. By title, not "the first of its kind": back-office specs
 * add games of their own to the shared e2e database (a PUBGGame with only «77 UC», listed first
 * with sort order 0), which took the place of PUBG Mobile in later specs.
 */
export const DEMO_GAME: Record<string, string> = {
  PUBGGame: 'PUBG Mobile',
  StandoffGame: 'Standoff 2',
  Steam: 'Steam (Россия)',
  SupplyGame: 'Genshin Impact',
}

export async function gameId(request: APIRequestContext, kind: string): Promise<number> {
  const games = (await (await request.get('/api/games/?limit=100')).json()) as Games
  const game = games.results.find((g) => g.resourcetype === kind && g.title === DEMO_GAME[kind])
  expect(game, `a ${kind} in the demo catalogue`).toBeTruthy()
  return game!.id
}

/** A gift of the demo catalogue (with its logo and price), by title for the same reason. */
export const DEMO_GIFT = 'Steam — карта пополнения 1000 ₽'

export interface GiftSummary {
  id: number
  title: string
  price: string
  discount_price: string | null
  in_stock: boolean
}

export async function demoGift(request: APIRequestContext): Promise<GiftSummary> {
  const gifts = (await (await request.get('/api/gifts/?limit=100')).json()) as { results: GiftSummary[] }
  const gift = gifts.results.find((g) => g.title === DEMO_GIFT)
  expect(gift, 'the demo gift').toBeTruthy()
  return gift!
}
