import { and, asc, eq, inArray } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { countries, paymentMethodGroups, paymentMethods, users } from '../../db/schema'
import { toMoney } from '../../lib/money'
import { formatPercentBp, formatRate } from './amounts'

export type CountryRow = typeof countries.$inferSelect

/** Name of the cookie that remembers a visitor's selected country. */
export const COUNTRY_COOKIE = 'country_id'
export const COUNTRY_COOKIE_MAX_AGE = 365 * 24 * 3600

/** The countries offered to buyers: the ones the owner has not hidden. */
export async function listCountries(db: Db): Promise<CountryRow[]> {
  return db
    .select()
    .from(countries)
    .where(eq(countries.hidden, false))
    .orderBy(asc(countries.sortOrder), asc(countries.id))
}

/** A country a buyer may choose (a hidden one is as unknown). */
export async function findCountry(db: Db | Tx, id: number): Promise<CountryRow | null> {
  const [row] = await db
    .select()
    .from(countries)
    .where(and(eq(countries.id, id), eq(countries.hidden, false)))
  return row ?? null
}

/** Remembers the country a signed-in buyer chose on their account. */
export async function rememberAccountCountry(db: Db | Tx, userId: number, countryId: number): Promise<void> {
  await db.update(users).set({ countryId }).where(eq(users.id, userId))
}

/**
 * The country a visitor pays in: the one they selected (cookie or explicit id), else the signed-in
 * user's saved one, else the default country (is_default, then the first by sort order).
 */
export async function resolveActiveCountry(
  db: Db,
  opts: { selectedId?: number | null; userId?: number | null },
): Promise<CountryRow | null> {
  if (opts.selectedId) {
    const c = await findCountry(db, opts.selectedId)
    if (c) return c
  }
  if (opts.userId) {
    const [u] = await db.select({ countryId: users.countryId }).from(users).where(eq(users.id, opts.userId))
    if (u?.countryId) {
      const c = await findCountry(db, u.countryId)
      if (c) return c
    }
  }
  const all = await listCountries(db)
  return all.find((c) => c.isDefault) ?? all[0] ?? null
}

export function serializeCountry(c: CountryRow) {
  return { id: c.id, flag: c.flag, name: c.name }
}

export function serializeMethod(m: typeof paymentMethods.$inferSelect) {
  return {
    name: m.name,
    title: m.title,
    uri: m.uri,
    fee: formatPercentBp(m.fee),
    icon: m.icon,
    is_active: m.isActive,
    min_amount: toMoney(m.minAmount),
    fix_fee: toMoney(m.fixFee),
    is_secondary: m.isSecondary,
    currencies: m.currencies,
    required_fields: m.requiredFields,
    can_retrieve_payment_data: m.canRetrievePaymentData,
  }
}

/** The active-country answer: the country, its currency and rate, method groups by `order`. */
export async function describeActiveCountry(
  db: Db,
  c: CountryRow,
  isUsable: (m: typeof paymentMethods.$inferSelect) => boolean,
) {
  const groups = await db
    .select()
    .from(paymentMethodGroups)
    .where(eq(paymentMethodGroups.countryId, c.id))
    .orderBy(asc(paymentMethodGroups.order), asc(paymentMethodGroups.id))
  const methods = groups.length
    ? await db
        .select()
        .from(paymentMethods)
        .where(
          inArray(
            paymentMethods.groupId,
            groups.map((g) => g.id),
          ),
        )
        .orderBy(asc(paymentMethods.sortOrder), asc(paymentMethods.id))
    : []
  return {
    ...serializeCountry(c),
    currency: c.currency,
    rate: formatRate(c.rateMicro),
    method_groups: groups.map((g) => ({
      name: g.name,
      short_name: g.shortName,
      order: g.order,
      methods: methods
        .filter((m) => m.groupId === g.id)
        .map((m) => ({
          ...serializeMethod(m),
          // a method whose provider is not configured cannot take payments: shown inactive
          is_active: isUsable(m),
        })),
    })),
  }
}
