import type { Db, Tx } from './client'
import { DEMO_ARTICLES, DEMO_CONTACT } from './demo/articles'
import { seedCatalogue } from './demo/catalogue'
import { seedGifts } from './demo/gifts'
import { seedPayments } from './demo/payments'
import { articles, contacts, promoCodes, standoffSettings, steamSettings } from './schema'

const DAY_MS = 24 * 60 * 60 * 1000

async function seedContent(tx: Tx): Promise<void> {
  await tx.insert(articles).values(DEMO_ARTICLES)
  await tx.insert(contacts).values(DEMO_CONTACT)
  await tx.insert(standoffSettings).values({
    id: 1,
    needRefund: false,
    isSurplusEnabled: true,
    skinName: 'FAMAS «Городской камуфляж»',
    skinPicture: '/images/standoff/skin.svg',
    marketFee: 500,
  })
  await tx.insert(steamSettings).values({ id: 1, commission: 800, minAmount: 10000, maxAmount: 5000000 })
}

async function seedPromoCodes(tx: Tx, gameIds: Map<string, number>, giftIds: Map<string, number>) {
  const game = (title: string) => gameIds.get(title)!
  const gift = (title: string) => giftIds.get(title)!
  const now = Date.now()
  await tx.insert(promoCodes).values([
    { code: 'WELCOME10', kind: 'PromoCode', percent: 10, gameId: game('PUBG Mobile') },
    {
      code: 'GENSHIN5',
      kind: 'PromoCode',
      percent: 5,
      gameId: game('Genshin Impact'),
      expiresAt: new Date(now + 180 * DAY_MS),
    },
    {
      code: 'STANDOFF7',
      kind: 'PromoCode',
      percent: 7,
      gameId: game('Standoff 2'),
      maxUses: 500,
      usedCount: 12,
    },
    { code: 'GIFT15', kind: 'GiftPromoCode', percent: 15, giftId: gift('Roblox — 800 Robux') },
    // expired long ago
    {
      code: 'OLD2020',
      kind: 'PromoCode',
      percent: 20,
      gameId: game('PUBG Mobile'),
      expiresAt: new Date('2020-12-31T23:59:59Z'),
    },
    // every use taken
    {
      code: 'SOLDOUT5',
      kind: 'GiftPromoCode',
      percent: 5,
      giftId: gift('Steam — карта пополнения 1000 ₽'),
      maxUses: 100,
      usedCount: 100,
    },
  ])
}

/** The demo shop: catalogue, gifts, payments setup, content, settings and promo codes. */
export async function seedDemoData(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    const gameIds = await seedCatalogue(tx)
    const giftIds = await seedGifts(tx)
    await seedPayments(tx)
    await seedContent(tx)
    await seedPromoCodes(tx, gameIds, giftIds)
  })
}
