// The back-office's payment setup: the countries, their method groups and methods as the owner
// reads them, and their creation and changes with the shop's rules — the first country is the
// default one and the default one is never hidden; a method's name is unique in the shop (it is the
// address of POST /api/payments/{name}/); a method charges its country's currency, names a kind its
// provider knows, and is on only when its provider can take payments. Every change is audited.
import { asc, eq, ne, sql } from 'drizzle-orm'
import type { ApiDeps } from '../../context'
import type { Db } from '../../db/client'
import { countries, paymentMethodGroups, paymentMethods } from '../../db/schema'
import { refuse, refuseField } from '../../lib/domain-error'
import { audit } from '../admin/audit'
import { patchAudited } from '../admin/patch'
import type { StaffMember } from '../admin/roles'
import { checkCanSwitchOn, checkProviderCurrency, checkProviderKind } from './method-setup'

export type PaymentCountry = typeof countries.$inferSelect
export type PaymentGroup = typeof paymentMethodGroups.$inferSelect
export type PaymentMethod = typeof paymentMethods.$inferSelect

/** Every country, method group and method, inactive ones too, each list in its display order. */
export async function paymentSetup(db: Db) {
  const [cs, gs, ms] = await Promise.all([
    db.select().from(countries).orderBy(asc(countries.sortOrder), asc(countries.id)),
    db
      .select()
      .from(paymentMethodGroups)
      .orderBy(asc(paymentMethodGroups.order), asc(paymentMethodGroups.id)),
    db.select().from(paymentMethods).orderBy(asc(paymentMethods.sortOrder), asc(paymentMethods.id)),
  ])
  return { countries: cs, groups: gs, methods: ms }
}

export interface CountryInput {
  name: string
  currency: string
  rateMicro?: number
  flag?: string
  sortOrder?: number
  hidden?: boolean
  isDefault?: boolean
}

/** Adds a country; the first one, or one asked to be, becomes the default. Returns its id. */
export async function createCountry(db: Db, staff: StaffMember, input: CountryInput): Promise<number> {
  return db.transaction(async (tx) => {
    const [{ n } = { n: 0 }] = await tx.select({ n: sql<number>`count(*)::int` }).from(countries)
    // the first country is the default one, whatever the form said
    const isDefault = n === 0 || input.isDefault === true
    if (isDefault) await tx.update(countries).set({ isDefault: false })
    const values = {
      name: input.name,
      currency: input.currency,
      rateMicro: input.rateMicro ?? 1_000_000,
      flag: input.flag ?? (input.currency === 'RUB' ? '/images/flags/ru.svg' : ''),
      sortOrder: input.sortOrder ?? 0,
      hidden: input.hidden ?? false,
      isDefault,
    }
    const [row] = await tx.insert(countries).values(values).returning({ id: countries.id })
    await audit(tx, staff, { action: 'country.create', entity: 'country', entityId: row!.id, after: values })
    return row!.id
  })
}

export interface GroupInput {
  name: string
  shortName?: string
  order?: number
}

/** Adds a method group to a country (404 when there is none). Returns its id. */
export async function createPaymentGroup(
  db: Db,
  staff: StaffMember,
  countryId: number,
  input: GroupInput,
): Promise<number> {
  return db.transaction(async (tx) => {
    const [country] = await tx.select({ id: countries.id }).from(countries).where(eq(countries.id, countryId))
    if (!country) throw refuse('not_found')
    const values = {
      countryId,
      name: input.name,
      shortName: input.shortName || input.name,
      order: input.order ?? 0,
    }
    const [row] = await tx
      .insert(paymentMethodGroups)
      .values(values)
      .returning({ id: paymentMethodGroups.id })
    await audit(tx, staff, {
      action: 'payment_method_group.create',
      entity: 'payment_method_group',
      entityId: row!.id,
      after: values,
    })
    return row!.id
  })
}

/** What the owner may set on a method (the name and provider only when creating it). */
export interface MethodSettings {
  title?: string
  kind?: string | null
  icon?: string
  isActive?: boolean
  fee?: number
  fixFee?: number
  minAmount?: number
  isSecondary?: boolean
  sortOrder?: number
}

export interface MethodInput extends MethodSettings {
  name: string
  title: string
  provider: string
}

/** Adds a payment method to a group (404 when there is none), by the rules above. Returns its id. */
export async function createPaymentMethod(
  deps: ApiDeps,
  staff: StaffMember,
  groupId: number,
  input: MethodInput,
): Promise<number> {
  return deps.db.transaction(async (tx) => {
    const [group] = await tx
      .select({ id: paymentMethodGroups.id, currency: countries.currency })
      .from(paymentMethodGroups)
      .innerJoin(countries, eq(countries.id, paymentMethodGroups.countryId))
      .where(eq(paymentMethodGroups.id, groupId))
    if (!group) throw refuse('not_found')
    const [taken] = await tx
      .select({ id: paymentMethods.id })
      .from(paymentMethods)
      .where(eq(paymentMethods.name, input.name))
      .limit(1)
    // the name is the address of POST /api/payments/{name}/: one method per name in the shop
    if (taken) throw refuseField('name', 'payment_method_name_taken', { name: input.name })
    const setup = checkProviderKind(deps, input.provider, input.kind ?? null)
    checkProviderCurrency(input.provider, group.currency)
    if (input.isActive) checkCanSwitchOn(deps, input.provider)
    const values = {
      groupId,
      name: input.name,
      title: input.title,
      provider: input.provider,
      scenario: setup.kind,
      icon: input.icon ?? setup.icon,
      isActive: input.isActive ?? false,
      fee: input.fee ?? 0,
      fixFee: input.fixFee ?? 0,
      minAmount: input.minAmount ?? 0,
      isSecondary: input.isSecondary ?? false,
      sortOrder: input.sortOrder ?? 0,
      currencies: [group.currency],
      requiredFields: [],
    }
    const [row] = await tx.insert(paymentMethods).values(values).returning({ id: paymentMethods.id })
    await audit(tx, staff, {
      action: 'payment_method.create',
      entity: 'payment_method',
      entityId: row!.id,
      after: values,
    })
    return row!.id
  })
}

export type CountryPatch = Partial<Pick<PaymentCountry, 'name' | 'rateMicro' | 'sortOrder' | 'hidden'>> & {
  /** Only `true`: the default country changes by naming another one. */
  isDefault?: true
}

/** Changes a country; one made the default takes the place of the old default. */
export async function patchCountry(
  db: Db,
  staff: StaffMember,
  id: number,
  patch: CountryPatch,
): Promise<void> {
  await db.transaction(async (tx) => {
    const after = await patchAudited<PaymentCountry>(
      tx,
      staff,
      { table: countries, id: countries.id, entity: 'country' },
      id,
      patch,
      (merged) => {
        // buyers land in the default country: it cannot be the hidden one
        if (merged.isDefault && merged.hidden) throw refuseField('hidden', 'payment_country_default_hidden')
      },
    )
    if (patch.isDefault)
      await tx.update(countries).set({ isDefault: false }).where(ne(countries.id, after.id))
  })
}

export type GroupPatch = Partial<Pick<PaymentGroup, 'name' | 'shortName' | 'order'>>

export async function patchPaymentGroup(
  db: Db,
  staff: StaffMember,
  id: number,
  patch: GroupPatch,
): Promise<void> {
  await db.transaction((tx) =>
    patchAudited<PaymentGroup>(
      tx,
      staff,
      { table: paymentMethodGroups, id: paymentMethodGroups.id, entity: 'payment_method_group' },
      id,
      patch,
    ),
  )
}

/** Changes a payment method; a new provider, kind or switching it on is checked by the rules above. */
export async function patchPaymentMethod(
  deps: ApiDeps,
  staff: StaffMember,
  id: number,
  patch: MethodSettings & { provider?: string },
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ method: paymentMethods, currency: countries.currency })
      .from(paymentMethods)
      .innerJoin(paymentMethodGroups, eq(paymentMethodGroups.id, paymentMethods.groupId))
      .innerJoin(countries, eq(countries.id, paymentMethodGroups.countryId))
      .where(eq(paymentMethods.id, id))
      .for('update', { of: paymentMethods })
    if (!row) throw refuse('not_found')
    const cur = row.method
    const provider = patch.provider ?? cur.provider
    const movedProvider = provider !== cur.provider
    // the edit form sends the current kind back: only a different one is checked
    const kindChanged =
      (patch.kind !== undefined && (patch.kind?.trim() || null) !== cur.scenario) || movedProvider
    // a new provider forgets the old one's kind unless a kind comes with it
    const kind = kindChanged
      ? checkProviderKind(deps, provider, patch.kind !== undefined ? patch.kind : null).kind
      : cur.scenario
    // switching on, or moving an active method to another provider, needs that provider's keys
    if (patch.isActive === true || (movedProvider && (patch.isActive ?? cur.isActive)))
      checkCanSwitchOn(deps, provider)
    // a method that is or will be on, or moves to another system, must charge its country's currency
    if (movedProvider || (patch.isActive ?? cur.isActive)) checkProviderCurrency(provider, row.currency)
    await patchAudited<PaymentMethod>(
      tx,
      staff,
      { table: paymentMethods, id: paymentMethods.id, entity: 'payment_method' },
      id,
      {
        title: patch.title,
        provider: patch.provider,
        scenario: kind,
        icon: patch.icon,
        isActive: patch.isActive,
        fee: patch.fee,
        fixFee: patch.fixFee,
        minAmount: patch.minAmount,
        isSecondary: patch.isSecondary,
        sortOrder: patch.sortOrder,
      },
    )
  })
}
