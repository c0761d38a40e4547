// Demo games, their products, supply servers, FAQ and the PUBG voucher stock.
import { randomBytes } from 'node:crypto'
import { percentOff } from '../lib/money'
import type { Tx } from '../db/types'
import {
  faq,
  type GameKind,
  games,
  type ProductKind,
  products,
  supplyServers,
  voucherCodes,
} from '../db/schema'

interface DemoProduct {
  title: string
  price: number // kopecks
  picture: string
  minQuantity?: number
  maxQuantity?: number
  isActive?: boolean
  discountPrice?: number
  discountPercent?: number
  amountUc?: number
  gold?: number
  supplierRef?: string
}

interface DemoGame {
  kind: GameKind
  title: string
  detailTitle: string
  detailDescription: string
  logo: string
  isAuthRequired?: boolean
  discountPercent?: number
  productPreviewName: string
  productPreviewIcon: string
  tags: string[]
  isServerNeeded?: boolean
  isServerEnum?: boolean
  supplierRef?: string
  /** Delivered by a person at the back-office desk (one game of each such kind, issue 31) */
  manual?: { deliveryMinutes: number }
  servers?: Array<{ name: string; code: string }>
  products: DemoProduct[]
  faq: Array<[question: string, answer: string]>
}

const PRODUCT_KIND: Record<GameKind, ProductKind> = {
  PUBGGame: 'PUBGProduct',
  StandoffGame: 'StandoffProduct',
  Steam: 'SteamProduct',
  SupplyGame: 'SupplyProduct',
}

/** A discounted product: `discount_price` is the unit price with `percent` off. */
function sale(
  price: number,
  percent: number,
): Pick<DemoProduct, 'price' | 'discountPrice' | 'discountPercent'> {
  return { price, discountPrice: percentOff(price, percent), discountPercent: percent }
}

const uc = (amount: number, price: number, extra: Partial<DemoProduct> = {}): DemoProduct => ({
  title: `${amount} UC`,
  price,
  picture: '/images/products/uc.svg',
  amountUc: amount,
  maxQuantity: 10,
  ...extra,
})

const nc = (amount: number, price: number, extra: Partial<DemoProduct> = {}): DemoProduct => ({
  title: `${amount} NC`,
  price,
  picture: '/images/products/nc.svg',
  amountUc: amount,
  maxQuantity: 10,
  ...extra,
})

const gold = (amount: number, price: number, extra: Partial<DemoProduct> = {}): DemoProduct => ({
  title: `${amount} голды`,
  price,
  picture: '/images/products/gold.svg',
  gold: amount,
  maxQuantity: 5,
  ...extra,
})

const PUBG_FAQ: DemoGame['faq'] = [
  [
    'Как активировать UC-код?',
    'Откройте страницу активации кодов на официальном сайте Midasbuy или в игре, введите ID персонажа и полученный код. UC зачислятся на аккаунт в течение нескольких минут.',
  ],
  [
    'Где найти купленный код?',
    'Код появится на странице заказа сразу после оплаты и придёт на указанную электронную почту. Если вы вошли в аккаунт, код также сохранится в истории заказов в профиле.',
  ],
  [
    'Можно ли купить несколько кодов сразу?',
    'Да. Выберите нужное количество каждого номинала в корзине — каждый код активируется отдельно и суммируется на балансе.',
  ],
  [
    'Код не активируется, что делать?',
    'Проверьте, что код введён без пробелов и что регион аккаунта поддерживает активацию. Если ошибка повторяется, напишите в поддержку и приложите номер заказа — мы проверим код и заменим его.',
  ],
]

const STANDOFF_FAQ: DemoGame['faq'] = [
  [
    'Как происходит зачисление голды?',
    'Мы выставляем на рынке Standoff 2 предмет, который нужно купить с вашего аккаунта. После покупки голда поступает на ваш баланс в игре — обычно в течение 15 минут.',
  ],
  [
    'Зачем нужен скриншот аватара?',
    'По аватару и ID аккаунта оператор находит ваш профиль на рынке и убеждается, что голда уходит нужному игроку.',
  ],
  [
    'Почему сумма чуть больше номинала?',
    'Рынок Standoff 2 удерживает комиссию с продажи предмета. Мы заранее добавляем её к стоимости, чтобы вы получили ровно выбранное количество голды.',
  ],
]

const STEAM_FAQ: DemoGame['faq'] = [
  [
    'Что указать в поле «Логин Steam»?',
    'Логин, который вы вводите при входе в Steam (не никнейм в профиле). Проверьте его в клиенте Steam: меню «Об аккаунте».',
  ],
  [
    'Как быстро приходят деньги?',
    'Обычно в течение 5–15 минут после оплаты. В редких случаях зачисление может занять до 2 часов.',
  ],
  [
    'Какая комиссия за пополнение?',
    'Комиссия сервиса видна в форме пополнения, комиссия способа оплаты — рядом с каждым способом. Всё это вы увидите до оплаты.',
  ],
  [
    'Есть ли ограничения по сумме?',
    'Одно пополнение — от 100 до 50 000 ₽. Для аккаунтов с ограничениями (без покупок на 5 $) пополнение тоже работает.',
  ],
]

const SUPPLY_FAQ: DemoGame['faq'] = [
  [
    'Где найти ID игрока?',
    'Откройте профиль персонажа в игре: ID указан под никнеймом или в настройках аккаунта. Скопируйте его полностью.',
  ],
  [
    'Нужен ли пароль от аккаунта?',
    'Нет. Для пополнения нужен только ID игрока (и сервер, если игра его запрашивает). Никогда не сообщайте пароль третьим лицам.',
  ],
  [
    'Сколько ждать зачисления?',
    'Большинство заказов выполняется автоматически за 1–10 минут. Статус заказа можно отслеживать на странице оплаты и в профиле.',
  ],
]

const PUBG_DESCRIPTION =
  'UC (Unknown Cash) — внутриигровая валюта PUBG Mobile. За UC покупают Royale Pass, костюмы, скины оружия и транспорта. Мы продаём официальные коды активации: оплатите заказ, получите код на почту и активируйте его на своём аккаунте.'

export const DEMO_GAMES: DemoGame[] = [
  {
    kind: 'PUBGGame',
    title: 'PUBG Mobile',
    detailTitle: 'Купить UC для PUBG Mobile',
    detailDescription: PUBG_DESCRIPTION,
    logo: '/images/games/pubg.svg',
    discountPercent: 5,
    productPreviewName: 'UC',
    productPreviewIcon: '/images/products/uc.svg',
    tags: ['Коды', 'Хит продаж', 'Моментально'],
    products: [
      uc(60, 8900),
      uc(325, 44900, sale(44900, 10)),
      uc(660, 89900),
      uc(1800, 229000, sale(229000, 7)),
      uc(3850, 449000),
      uc(8100, 899000, { ...sale(899000, 5), maxQuantity: 3 }),
    ],
    faq: PUBG_FAQ,
  },
  {
    kind: 'PUBGGame',
    title: 'PUBG: New State',
    detailTitle: 'NC для PUBG: New State',
    detailDescription:
      'NC — премиальная валюта PUBG: New State. Коды доступны только зарегистрированным покупателям: войдите в аккаунт, чтобы оформить заказ, — коды сохранятся в истории заказов.',
    logo: '/images/games/pubg-new-state.svg',
    isAuthRequired: true,
    productPreviewName: 'NC',
    productPreviewIcon: '/images/products/nc.svg',
    tags: ['Коды', 'Только для авторизованных'],
    products: [nc(300, 39900), nc(1000, 119900, sale(119900, 15)), nc(2500, 279900)],
    faq: PUBG_FAQ.slice(0, 3),
  },
  {
    kind: 'StandoffGame',
    title: 'Standoff 2',
    detailTitle: 'Голда Standoff 2 без входа в аккаунт',
    detailDescription:
      'Пополните голду в Standoff 2 через внутриигровой рынок: укажите ID аккаунта и загрузите скриншот аватара, а мы выставим предмет для покупки. Комиссия рынка уже учтена в цене.',
    logo: '/images/games/standoff2.svg',
    productPreviewName: 'Голда',
    productPreviewIcon: '/images/products/gold.svg',
    tags: ['Голда', 'Через рынок'],
    products: [
      gold(100, 8900),
      gold(500, 42900, sale(42900, 5)),
      gold(1000, 83900),
      gold(3000, 246900, sale(246900, 10)),
      gold(5000, 409900),
    ],
    faq: STANDOFF_FAQ,
  },
  {
    kind: 'StandoffGame',
    title: 'Standoff 2 — крупные пакеты',
    manual: { deliveryMinutes: 30 },
    detailTitle: 'Крупные пакеты голды Standoff 2',
    detailDescription:
      'Выгодные пакеты от 10 000 голды для кланов и коллекционеров. Зачисление тем же способом, что и обычные пакеты, — через рынок игры.',
    logo: '/images/games/standoff2-bulk.svg',
    discountPercent: 3,
    productPreviewName: 'Голда',
    productPreviewIcon: '/images/products/gold.svg',
    tags: ['Голда', 'Оптом'],
    products: [
      gold(10000, 799000, { maxQuantity: 3 }),
      gold(25000, 1949000, { ...sale(1949000, 4), maxQuantity: 2 }),
    ],
    faq: STANDOFF_FAQ,
  },
  {
    kind: 'Steam',
    title: 'Steam (Россия)',
    detailTitle: 'Пополнение кошелька Steam в рублях',
    detailDescription:
      'Пополнение баланса Steam для аккаунтов с регионом Россия. Введите логин Steam и сумму от 100 до 50 000 ₽ — деньги поступят на кошелёк в рублях.',
    logo: '/images/games/steam-ru.svg',
    productPreviewName: 'Рубли',
    productPreviewIcon: '/images/products/wallet.svg',
    tags: ['Steam', 'Без комиссии банка'],
    products: [],
    faq: STEAM_FAQ,
  },
  {
    kind: 'Steam',
    title: 'Steam (Казахстан)',
    manual: { deliveryMinutes: 30 },
    detailTitle: 'Пополнение Steam для аккаунтов Казахстана',
    detailDescription:
      'Пополнение кошелька Steam с регионом Казахстан. Оплачиваете в рублях — на кошелёк поступают тенге по текущему курсу.',
    logo: '/images/games/steam-kz.svg',
    productPreviewName: 'Тенге',
    productPreviewIcon: '/images/products/wallet.svg',
    tags: ['Steam', 'Казахстан'],
    products: [],
    faq: STEAM_FAQ,
  },
  {
    kind: 'SupplyGame',
    title: 'Genshin Impact',
    detailTitle: 'Кристаллы сотворения Genshin Impact',
    detailDescription:
      'Пополнение по UID без входа в аккаунт. Выберите сервер, укажите UID — кристаллы сотворения и «Благословение полой луны» зачисляются автоматически.',
    logo: '/images/games/genshin.svg',
    productPreviewName: 'Кристаллы',
    productPreviewIcon: '/images/products/crystal.svg',
    tags: ['По UID', 'Выбор сервера'],
    isServerNeeded: true,
    isServerEnum: true,
    supplierRef: 'mg-428',
    servers: [
      { name: 'Азия', code: 'os_asia' },
      { name: 'Америка', code: 'os_usa' },
      { name: 'Европа', code: 'os_euro' },
      { name: 'TW, HK, MO', code: 'os_cht' },
    ],
    products: [
      { title: '60 кристаллов', price: 8900, supplierRef: 'mg-4281' },
      { title: '300 + 30 кристаллов', ...sale(44900, 10), supplierRef: 'mg-4282' },
      { title: '980 + 110 кристаллов', price: 139900, supplierRef: 'mg-4283' },
      { title: '1980 + 260 кристаллов', price: 279900, supplierRef: 'mg-4284' },
      { title: '3280 + 600 кристаллов', ...sale(449900, 8), supplierRef: 'mg-4285' },
      { title: '6480 + 1600 кристаллов', price: 899900, maxQuantity: 3, supplierRef: 'mg-4286' },
      {
        title: 'Благословение полой луны',
        price: 44900,
        picture: '/images/products/pass.svg',
        maxQuantity: 1,
        supplierRef: 'mg-4287',
      },
    ].map((p) => ({ picture: '/images/products/crystal.svg', ...p })),
    faq: [
      ...SUPPLY_FAQ,
      [
        'Как узнать свой сервер?',
        'Сервер указан на экране входа в игру. Азия, Америка, Европа и TW/HK/MO — разные серверы: кристаллы, отправленные на другой сервер, не перенести.',
      ],
    ],
  },
  {
    kind: 'SupplyGame',
    title: 'Mobile Legends: Bang Bang',
    detailTitle: 'Алмазы Mobile Legends по ID и Zone ID',
    detailDescription:
      'Алмазы Mobile Legends зачисляются по ID игрока и номеру зоны (Zone ID). Оба числа видны в профиле: ID указан перед скобками, Zone ID — в скобках.',
    logo: '/images/games/mlbb.svg',
    productPreviewName: 'Алмазы',
    productPreviewIcon: '/images/products/diamond.svg',
    tags: ['По ID', 'Zone ID'],
    isServerNeeded: true,
    isServerEnum: false,
    supplierRef: 'mg-511',
    products: [
      { title: '86 алмазов', price: 13900, supplierRef: 'mg-5111' },
      { title: '172 алмаза', price: 27500, supplierRef: 'mg-5112' },
      { title: '257 алмазов', ...sale(40900, 5), supplierRef: 'mg-5113' },
      { title: '706 алмазов', price: 109900, supplierRef: 'mg-5114' },
      { title: '2195 алмазов', ...sale(329900, 12), supplierRef: 'mg-5115' },
      { title: 'Сумеречный пропуск', price: 79900, isActive: false, maxQuantity: 1, supplierRef: 'mg-5116' },
    ].map((p) => ({ picture: '/images/products/diamond.svg', ...p })),
    faq: [
      ...SUPPLY_FAQ,
      [
        'Что такое Zone ID?',
        'Это номер игрового сервера, на котором создан персонаж. Он показан в профиле в скобках рядом с ID, например 12345678 (1234).',
      ],
    ],
  },
  {
    kind: 'SupplyGame',
    title: 'Free Fire',
    manual: { deliveryMinutes: 30 },
    detailTitle: 'Алмазы Free Fire по ID игрока',
    detailDescription:
      'Пополнение алмазов Free Fire по ID игрока — сервер указывать не нужно. Пакет «100 алмазов» продаётся от двух штук.',
    logo: '/images/games/free-fire.svg',
    productPreviewName: 'Алмазы',
    productPreviewIcon: '/images/products/diamond.svg',
    tags: ['По ID', 'Без сервера'],
    isServerNeeded: false,
    isServerEnum: false,
    supplierRef: 'mg-302',
    products: [
      { title: '100 алмазов', price: 9900, minQuantity: 2, maxQuantity: 20, supplierRef: 'mg-3021' },
      { title: '310 алмазов', price: 29900, supplierRef: 'mg-3022' },
      { title: '520 алмазов', ...sale(47900, 6), supplierRef: 'mg-3023' },
      { title: '1060 алмазов', price: 94900, supplierRef: 'mg-3024' },
      { title: '2180 алмазов', ...sale(189900, 10), supplierRef: 'mg-3025' },
      {
        title: 'Недельная подписка',
        price: 19900,
        picture: '/images/products/pass.svg',
        maxQuantity: 4,
        supplierRef: 'mg-3026',
      },
    ].map((p) => ({ picture: '/images/products/diamond.svg', ...p })),
    faq: SUPPLY_FAQ,
  },
]

/** Voucher codes in stock per PUBG product. */
export const VOUCHERS_PER_PRODUCT = 30

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'

/** A random code of `groups` blocks of `size` characters, e.g. "K7QX-M2PA-…". */
export function randomCode(groups: number, size: number, prefix = ''): string {
  const bytes = randomBytes(groups * size)
  const chars = Array.from(bytes, (b) => CODE_ALPHABET[b % CODE_ALPHABET.length])
  const blocks: string[] = []
  for (let g = 0; g < groups; g++) blocks.push(chars.slice(g * size, (g + 1) * size).join(''))
  return prefix + blocks.join('-')
}

/** `stockPerItem`: voucher codes per PUBG product (default VOUCHERS_PER_PRODUCT). */
export async function seedCatalogue(
  tx: Tx,
  stockPerItem = VOUCHERS_PER_PRODUCT,
): Promise<Map<string, number>> {
  const gameIds = new Map<string, number>()
  const usedCodes = new Set<string>()
  for (const [i, g] of DEMO_GAMES.entries()) {
    const [row] = await tx
      .insert(games)
      .values({
        kind: g.kind,
        title: g.title,
        detailTitle: g.detailTitle,
        detailDescription: g.detailDescription,
        logo: g.logo,
        isAuthRequired: g.isAuthRequired ?? false,
        discountPercent: g.discountPercent ?? 0,
        productPreviewName: g.productPreviewName,
        productPreviewIcon: g.productPreviewIcon,
        tags: g.tags,
        isServerNeeded: g.isServerNeeded ?? false,
        isServerEnum: g.isServerEnum ?? false,
        // the demo's other games are delivered at once by the sandbox; these wait at /admin/delivery
        supplier: g.manual ? 'manual' : 'sandbox',
        ...(g.manual ? { deliveryMinutes: g.manual.deliveryMinutes } : {}),
        supplierRef: g.supplierRef ?? null,
        // the demo checks Standoff and supply-channel player ids with the sandbox look-up
        playerCheck: g.kind === 'StandoffGame' || g.kind === 'SupplyGame' ? 'sandbox' : null,
        sortOrder: (i + 1) * 10,
      })
      .returning({ id: games.id })
    const gameId = row!.id
    gameIds.set(g.title, gameId)

    if (g.servers?.length) {
      await tx.insert(supplyServers).values(g.servers.map((s) => ({ gameId, ...s })))
    }
    if (g.products.length) {
      const inserted = await tx
        .insert(products)
        .values(
          g.products.map((p, j) => ({
            gameId,
            kind: PRODUCT_KIND[g.kind],
            title: p.title,
            price: p.price,
            picture: p.picture,
            minQuantity: p.minQuantity ?? 1,
            maxQuantity: p.maxQuantity ?? 10,
            isActive: p.isActive ?? true,
            discountPrice: p.discountPrice ?? null,
            discountPercent: p.discountPercent ?? 0,
            amountUc: p.amountUc ?? null,
            gold: p.gold ?? null,
            supplierRef: p.supplierRef ?? null,
            sortOrder: (j + 1) * 10,
          })),
        )
        .returning({ id: products.id, amountUc: products.amountUc })
      if (g.kind === 'PUBGGame') {
        const stock = inserted.flatMap((p) =>
          Array.from({ length: stockPerItem }, () => {
            let code: string
            do code = randomCode(4, 4, g.title === 'PUBG Mobile' ? 'UC-' : 'NC-')
            while (usedCodes.has(code))
            usedCodes.add(code)
            return { productId: p.id, code, amountUc: p.amountUc! }
          }),
        )
        await tx.insert(voucherCodes).values(stock)
      }
    }
    await tx.insert(faq).values(g.faq.map(([text, answer], j) => ({ gameId, text, answer, order: j + 1 })))
  }
  return gameIds
}
