import type { Db } from './client'
import { games, products } from './schema'

/** The demo catalogue. */
export async function seedDemoData(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    const [pubg] = await tx
      .insert(games)
      .values({ kind: 'PUBGGame', title: 'PUBG Mobile', logo: '/images/games/pubg.svg' })
      .returning()
    await tx.insert(products).values({
      gameId: pubg!.id,
      kind: 'PUBGProduct',
      title: '60 UC',
      price: 9900,
      amountUc: 60,
    })
  })
}
