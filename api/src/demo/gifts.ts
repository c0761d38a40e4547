// Demo gift cards (RokkyGift) and their code stock.
import { percentOff } from '../lib/money'
import type { Tx } from '../db/types'
import { giftCodes, gifts } from '../db/schema'
import { randomCode } from './catalogue'

interface DemoGift {
  title: string
  type: string
  region: string
  price: number // kopecks
  cashback: number // percent
  logo: string
  discountPercent?: number
  description: string
  tags: string[]
  isMain?: boolean
  isNew?: boolean
  /** codes in stock; 0 = out of stock */
  stock?: number
  /** days ago it appeared in the shop (drives `created`) */
  age: number
}

export const GIFT_CODES_PER_GIFT = 20

const ACTIVATE =
  'Код приходит на почту сразу после оплаты и сохраняется в истории заказов. Срок действия кода не ограничен, если иное не указано издателем.'

export const DEMO_GIFTS: DemoGift[] = [
  {
    title: 'Steam — карта пополнения 1000 ₽',
    type: 'Карта пополнения',
    region: 'Россия',
    price: 109000,
    cashback: 2,
    logo: '/images/gifts/steam-1000.svg',
    description: `Цифровой код на 1000 ₽ для кошелька Steam. Подходит для аккаунтов с регионом Россия. Активируйте его в клиенте Steam: «Игры» → «Активировать код». ${ACTIVATE}`,
    tags: ['Steam', 'Кошелёк', 'Россия'],
    isMain: true,
    age: 120,
  },
  {
    title: 'Steam Wallet 20 USD',
    type: 'Карта пополнения',
    region: 'США',
    price: 219000,
    cashback: 2,
    logo: '/images/gifts/steam-usd.svg',
    discountPercent: 7,
    description: `Карта пополнения Steam на 20 долларов для аккаунтов с регионом США. ${ACTIVATE}`,
    tags: ['Steam', 'USD'],
    age: 90,
  },
  {
    title: 'PlayStation Store 20 USD',
    type: 'Подарочная карта',
    region: 'США',
    price: 229000,
    cashback: 3,
    logo: '/images/gifts/playstation.svg',
    description: `Пополнение бумажника PlayStation Store на 20 долларов. Работает только с американской учётной записью PlayStation Network. ${ACTIVATE}`,
    tags: ['PlayStation', 'PSN', 'США'],
    isMain: true,
    age: 80,
  },
  {
    title: 'PlayStation Plus Essential, 3 месяца',
    type: 'Подписка',
    region: 'Турция',
    price: 189000,
    cashback: 4,
    logo: '/images/gifts/ps-plus.svg',
    discountPercent: 16,
    description: `Подписка PS Plus Essential на 3 месяца: сетевая игра, ежемесячные игры и облачные сохранения. Для аккаунтов с регионом Турция. ${ACTIVATE}`,
    tags: ['PlayStation', 'Подписка'],
    isNew: true,
    age: 3,
  },
  {
    title: 'Xbox Gift Card 25 USD',
    type: 'Подарочная карта',
    region: 'США',
    price: 269000,
    cashback: 3,
    logo: '/images/gifts/xbox.svg',
    description: `Подарочная карта Xbox на 25 долларов для покупок в Microsoft Store на консоли и ПК. ${ACTIVATE}`,
    tags: ['Xbox', 'Microsoft'],
    age: 60,
  },
  {
    title: 'Xbox Game Pass Ultimate, 1 месяц',
    type: 'Подписка',
    region: 'Глобальный',
    price: 149000,
    cashback: 5,
    logo: '/images/gifts/game-pass.svg',
    discountPercent: 13,
    description: `Месяц Game Pass Ultimate: сотни игр на Xbox и ПК, EA Play и облачный гейминг. Код продлевает действующую подписку или открывает новую. ${ACTIVATE}`,
    tags: ['Xbox', 'Подписка', 'Game Pass'],
    isMain: true,
    isNew: true,
    age: 5,
  },
  {
    title: 'Nintendo eShop 20 USD',
    type: 'Подарочная карта',
    region: 'США',
    price: 225000,
    cashback: 2,
    logo: '/images/gifts/nintendo.svg',
    description: `Пополнение баланса Nintendo eShop для американского аккаунта Nintendo. Подходит для Nintendo Switch. ${ACTIVATE}`,
    tags: ['Nintendo', 'Switch'],
    age: 45,
  },
  {
    title: 'App Store и iTunes 500 ₽',
    type: 'Подарочная карта',
    region: 'Россия',
    price: 55000,
    cashback: 1,
    logo: '/images/gifts/app-store.svg',
    description: `Подарочная карта App Store на 500 ₽ для Apple ID с регионом Россия: приложения, игры, подписки и место в облаке. ${ACTIVATE}`,
    tags: ['Apple', 'App Store'],
    stock: 0,
    age: 150,
  },
  {
    title: 'Google Play 10 USD',
    type: 'Подарочная карта',
    region: 'США',
    price: 109000,
    cashback: 2,
    logo: '/images/gifts/google-play.svg',
    discountPercent: 9,
    description: `Код пополнения Google Play на 10 долларов для аккаунта с регионом США. Активируется в приложении Google Play: «Платежи и подписки» → «Использовать подарочный код». ${ACTIVATE}`,
    tags: ['Google Play', 'Android'],
    age: 30,
  },
  {
    title: 'Roblox — 800 Robux',
    type: 'Игровая валюта',
    region: 'Глобальный',
    price: 99000,
    cashback: 3,
    logo: '/images/gifts/roblox.svg',
    description: `Цифровая карта на 800 Robux. Активируйте код на сайте Roblox в разделе «Redeem» — Robux зачисляются мгновенно. ${ACTIVATE}`,
    tags: ['Roblox', 'Robux', 'Для детей'],
    isNew: true,
    age: 2,
  },
  {
    title: 'Spotify Premium, 3 месяца',
    type: 'Подписка',
    region: 'Казахстан',
    price: 79000,
    cashback: 4,
    logo: '/images/gifts/spotify.svg',
    description: `Три месяца Spotify Premium без рекламы и с загрузкой треков. Для аккаунтов с регионом Казахстан. ${ACTIVATE}`,
    tags: ['Музыка', 'Подписка'],
    age: 70,
  },
  {
    title: 'Fortnite — 1000 В-баксов',
    type: 'Игровая валюта',
    region: 'Глобальный',
    price: 89000,
    cashback: 3,
    logo: '/images/gifts/fortnite.svg',
    discountPercent: 11,
    description: `Код на 1000 В-баксов для Fortnite: боевой пропуск, экипировка и эмоции. ${ACTIVATE}`,
    tags: ['Fortnite', 'Epic Games'],
    isNew: true,
    age: 1,
  },
  {
    title: 'Battle.net 20 USD',
    type: 'Карта пополнения',
    region: 'США',
    price: 219000,
    cashback: 2,
    logo: '/images/gifts/battle-net.svg',
    description: `Пополнение баланса Battle.net на 20 долларов: игры, дополнения и внутриигровые покупки в играх Blizzard. ${ACTIVATE}`,
    tags: ['Blizzard', 'Battle.net'],
    age: 100,
  },
  {
    title: 'Valorant — 1000 VP',
    type: 'Игровая валюта',
    region: 'Турция',
    price: 69000,
    cashback: 3,
    logo: '/images/gifts/valorant.svg',
    discountPercent: 10,
    description: `Код на Valorant Points для аккаунтов Riot с регионом Турция. Подходит для покупки скинов и боевого пропуска. ${ACTIVATE}`,
    tags: ['Riot Games', 'Valorant'],
    isNew: true,
    age: 7,
  },
]

const DAY_MS = 24 * 60 * 60 * 1000

/** `stockPerItem`: codes per gift that has no stock of its own (default GIFT_CODES_PER_GIFT). */
export async function seedGifts(tx: Tx, stockPerItem = GIFT_CODES_PER_GIFT): Promise<Map<string, number>> {
  const ids = new Map<string, number>()
  const now = Date.now()
  const usedCodes = new Set<string>()
  for (const g of DEMO_GIFTS) {
    const [row] = await tx
      .insert(gifts)
      .values({
        title: g.title,
        type: g.type,
        region: g.region,
        price: g.price,
        cashback: g.cashback,
        logo: g.logo,
        discountPrice: g.discountPercent ? percentOff(g.price, g.discountPercent) : null,
        discountPercent: g.discountPercent ?? 0,
        description: g.description,
        tags: g.tags,
        created: new Date(now - g.age * DAY_MS),
        isMain: g.isMain ?? false,
        isNew: g.isNew ?? false,
      })
      .returning({ id: gifts.id })
    ids.set(g.title, row!.id)
    const stock = g.stock ?? stockPerItem
    if (stock > 0) {
      const codes = Array.from({ length: stock }, () => {
        let code: string
        do code = randomCode(3, 5)
        while (usedCodes.has(code))
        usedCodes.add(code)
        return { giftId: row!.id, code }
      })
      await tx.insert(giftCodes).values(codes)
    }
  }
  return ids
}
