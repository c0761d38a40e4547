// Deleting a country, a method group or a payment method from the back-office. Payments name their
// method (payments.method_name), so a method anyone has paid with stays (the owner switches it off,
// or hides the country, instead); deleting a group or a country deletes what it holds, by the same
// rule. The default country stays (buyers land in it), and so do YooKassa's own methods while its
// keys are set (start-up would make them again). Every deletion is audited with what it removed.
import { eq, inArray, sql } from 'drizzle-orm'
import type { ApiDeps } from '../../context'
import type { Tx } from '../../db/client'
import { countries, paymentMethodGroups, paymentMethods, payments, users } from '../../db/schema'
import type { fail } from '../../lib/errors'
import { refuse } from '../../lib/domain-error'
import { YOOKASSA_METHODS } from '../../providers/yookassa'
import { audit } from '../admin/audit'
import type { StaffMember } from '../admin/roles'
import { providerReady } from './method-setup'

type Method = typeof paymentMethods.$inferSelect

/** Refuses when a payment names one of `methods`, or one is YooKassa's own while its keys are set. */
async function checkRemovable(
  tx: Tx,
  deps: ApiDeps,
  methods: Method[],
  refusal: () => ReturnType<typeof fail>,
): Promise<void> {
  if (methods.length === 0) return
  const builtin = methods.find(
    (m) => m.provider === 'yookassa' && YOOKASSA_METHODS.some((y) => y.name === m.name),
  )
  if (builtin && providerReady(deps, 'yookassa'))
    throw refuse('payment_method_builtin', { title: builtin.title })
  const [{ n } = { n: 0 }] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(payments)
    .where(
      inArray(
        payments.methodName,
        methods.map((m) => m.name),
      ),
    )
  if (n > 0) throw refusal()
}

const brief = (m: Method) => ({ id: m.id, name: m.name, title: m.title, provider: m.provider })

async function removeMethod(tx: Tx, deps: ApiDeps, staff: StaffMember, id: number) {
  const [m] = await tx.select().from(paymentMethods).where(eq(paymentMethods.id, id)).for('update')
  if (!m) throw refuse('not_found')
  await checkRemovable(tx, deps, [m], () => refuse('payment_method_has_payments', { title: m.title }))
  await tx.delete(paymentMethods).where(eq(paymentMethods.id, id))
  await audit(tx, staff, {
    action: 'payment_method.delete',
    entity: 'payment_method',
    entityId: id,
    before: m,
  })
}

async function removeGroup(tx: Tx, deps: ApiDeps, staff: StaffMember, id: number) {
  const [g] = await tx.select().from(paymentMethodGroups).where(eq(paymentMethodGroups.id, id)).for('update')
  if (!g) throw refuse('not_found')
  const methods = await tx.select().from(paymentMethods).where(eq(paymentMethods.groupId, id)).for('update')
  await checkRemovable(tx, deps, methods, () => refuse('payment_group_has_payments', { name: g.name }))
  // its methods go with it (the foreign key cascades)
  await tx.delete(paymentMethodGroups).where(eq(paymentMethodGroups.id, id))
  await audit(tx, staff, {
    action: 'payment_method_group.delete',
    entity: 'payment_method_group',
    entityId: id,
    before: { ...g, methods: methods.map(brief) },
  })
}

async function removeCountry(tx: Tx, deps: ApiDeps, staff: StaffMember, id: number) {
  const [c] = await tx.select().from(countries).where(eq(countries.id, id)).for('update')
  if (!c) throw refuse('not_found')
  if (c.isDefault) throw refuse('payment_country_default_delete', { name: c.name })
  const groups = await tx.select().from(paymentMethodGroups).where(eq(paymentMethodGroups.countryId, id))
  const methods = groups.length
    ? await tx
        .select()
        .from(paymentMethods)
        .where(
          inArray(
            paymentMethods.groupId,
            groups.map((g) => g.id),
          ),
        )
        .for('update')
    : []
  await checkRemovable(tx, deps, methods, () => refuse('payment_country_has_payments', { name: c.name }))
  // buyers who chose it land in the default country again
  await tx.update(users).set({ countryId: null }).where(eq(users.countryId, id))
  await tx.delete(countries).where(eq(countries.id, id))
  await audit(tx, staff, {
    action: 'country.delete',
    entity: 'country',
    entityId: id,
    before: {
      ...c,
      method_groups: groups.map((g) => ({
        id: g.id,
        name: g.name,
        methods: methods.filter((m) => m.groupId === g.id).map(brief),
      })),
    },
  })
}

/** Deletes a payment method, in its own transaction. */
export const deletePaymentMethod = (deps: ApiDeps, staff: StaffMember, id: number) =>
  deps.db.transaction((tx) => removeMethod(tx, deps, staff, id))

/** Deletes a method group with its methods, in its own transaction. */
export const deletePaymentGroup = (deps: ApiDeps, staff: StaffMember, id: number) =>
  deps.db.transaction((tx) => removeGroup(tx, deps, staff, id))

/** Deletes a country with its groups and methods, in its own transaction. */
export const deleteCountry = (deps: ApiDeps, staff: StaffMember, id: number) =>
  deps.db.transaction((tx) => removeCountry(tx, deps, staff, id))
