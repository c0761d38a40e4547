// When the YooKassa keys are set, its four methods exist (switched off until the owner turns them
// on in the back-office), in the roubles country's first method group; a shop without a roubles
// country or a group gets «Россия» and a group first. Run at start-up by every instance: under an
// advisory lock, and a method whose name exists anywhere is never made again, so two instances
// starting together, or a restart, add nothing twice.
import { asc, eq, inArray, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { countries, paymentMethodGroups, paymentMethods } from '../../db/schema'
import { YOOKASSA_METHODS, type YookassaKind } from '../../providers/yookassa'

const SETUP_LOCK_KEY = 7_419_032

const LOOK: Record<YookassaKind, { title: string; icon: string }> = {
  bank_card: { title: 'Банковская карта', icon: '/images/payment/card.svg' },
  sbp: { title: 'СБП', icon: '/images/payment/sbp.svg' },
  sberbank: { title: 'SberPay', icon: '/images/payment/phone.svg' },
  tinkoff_bank: { title: 'T-Pay', icon: '/images/payment/wallet.svg' },
}

/** Creates what is missing; the names of the methods it created. */
export async function ensureYookassaMethods(db: Db): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SETUP_LOCK_KEY})`)
    const names = YOOKASSA_METHODS.map((m) => m.name)
    const existing = new Set(
      (
        await tx
          .select({ name: paymentMethods.name })
          .from(paymentMethods)
          .where(inArray(paymentMethods.name, names))
      ).map((r) => r.name),
    )
    const missing = YOOKASSA_METHODS.filter((m) => !existing.has(m.name))
    if (missing.length === 0) return []
    let [country] = await tx
      .select()
      .from(countries)
      .where(eq(countries.currency, 'RUB'))
      .orderBy(sql`${countries.isDefault} desc`, asc(countries.sortOrder), asc(countries.id))
      .limit(1)
    if (!country) {
      const [{ n } = { n: 0 }] = await tx.select({ n: sql<number>`count(*)::int` }).from(countries)
      ;[country] = await tx
        .insert(countries)
        .values({
          name: 'Россия',
          flag: '/images/flags/ru.svg',
          currency: 'RUB',
          rateMicro: 1_000_000,
          isDefault: n === 0,
        })
        .returning()
    }
    let [group] = await tx
      .select()
      .from(paymentMethodGroups)
      .where(eq(paymentMethodGroups.countryId, country!.id))
      .orderBy(asc(paymentMethodGroups.order), asc(paymentMethodGroups.id))
      .limit(1)
    if (!group)
      [group] = await tx
        .insert(paymentMethodGroups)
        .values({ countryId: country!.id, name: 'Карты и СБП', shortName: 'Карты и СБП' })
        .returning()
    // two methods of one title in one list would confuse the buyer: ours then names YooKassa
    const titles = new Set(
      (
        await tx
          .select({ title: paymentMethods.title })
          .from(paymentMethods)
          .where(eq(paymentMethods.groupId, group!.id))
      ).map((r) => r.title),
    )
    await tx.insert(paymentMethods).values(
      missing.map((m, i) => ({
        groupId: group!.id,
        name: m.name,
        title: titles.has(LOOK[m.kind].title) ? `${LOOK[m.kind].title} (ЮKassa)` : LOOK[m.kind].title,
        icon: LOOK[m.kind].icon,
        provider: 'yookassa',
        scenario: m.kind,
        currencies: ['RUB'],
        requiredFields: [],
        // the owner decides when the shop takes money this way
        isActive: false,
        sortOrder: i,
      })),
    )
    return missing.map((m) => m.name)
  })
}
