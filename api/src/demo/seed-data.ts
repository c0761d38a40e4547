import type { Db, Tx } from '../db/types'
import { DEMO_ARTICLES, DEMO_CONTACT } from './articles'
import { seedCatalogue } from './catalogue'
import { seedGifts } from './gifts'
import { seedPayments } from './payments'
import {
  articles,
  contacts,
  promoCodes,
  staffRoles,
  standoffSettings,
  steamSettings,
  users,
} from '../db/schema'
import { hashPassword } from '../services/auth/password-hash'
import { DEMO_OWNER_EMAIL, DEMO_SUPPORT_EMAIL } from '../services/admin/demo-staff'

const DAY_MS = 24 * 60 * 60 * 1000

async function seedContent(tx: Tx, texts: boolean): Promise<void> {
  if (texts) {
    await tx.insert(articles).values(DEMO_ARTICLES)
    await tx.insert(contacts).values(DEMO_CONTACT)
  }
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

/** The demo's shop owner (its email and password are in the README), so the back-office can be tried. */
export const DEMO_OWNER = { email: DEMO_OWNER_EMAIL, password: 'demo-owner-2026' }
/** A support member of the demo, to see the back-office as support sees it (orders only). */
export const DEMO_SUPPORT = { email: DEMO_SUPPORT_EMAIL, password: 'demo-support-2026' }

async function seedDemoStaff(tx: Tx) {
  const staff = [
    { ...DEMO_OWNER, nickname: 'Владелец', role: 'owner' as const },
    { ...DEMO_SUPPORT, nickname: 'Поддержка', role: 'support' as const },
  ]
  for (const s of staff) {
    const [user] = await tx
      .insert(users)
      // confirmed: a role needs a proven email (issue 42); these addresses are the demo's own
      .values({
        email: s.email,
        passwordHash: await hashPassword(s.password),
        nickname: s.nickname,
        emailConfirmedAt: new Date(),
      })
      .returning({ id: users.id })
    await tx.insert(staffRoles).values({ userId: user!.id, role: s.role, grantedBy: 'demo seed' })
  }
}

export interface DemoSeedOptions {
  /** Codes in stock per PUBG product and per gift (DEMO_STOCK; the defaults when unset). */
  stockPerItem?: number
  /**
   * The demo staff accounts (public passwords): only in demo mode. A production `SEED_DEMO=1`
   * seeds the catalogue without them (issue 42).
   */
  staff?: boolean
  /**
   * The demo's articles (a made-up company's privacy policy and agreement) and contacts: only in
   * demo mode. A production `SEED_DEMO=1` shop publishes its own legal documents from templates in
   * /admin/articles and shows its own requisites (issue 47).
   */
  texts?: boolean
}

/** The demo shop: catalogue, gifts, payments setup, content, settings, promo codes (and staff). */
export async function seedDemoData(db: Db, opts: DemoSeedOptions = {}): Promise<void> {
  await db.transaction(async (tx) => {
    const gameIds = await seedCatalogue(tx, opts.stockPerItem)
    const giftIds = await seedGifts(tx, opts.stockPerItem)
    await seedPayments(tx)
    await seedContent(tx, opts.texts !== false)
    await seedPromoCodes(tx, gameIds, giftIds)
    if (opts.staff !== false) await seedDemoStaff(tx)
  })
}
