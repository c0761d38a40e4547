// Back-office payment setup: countries, method groups and methods (active, fees, limits, order).
import { z } from '@hono/zod-openapi'
import { asc, eq } from 'drizzle-orm'
import type { ApiApp } from '../../context'
import { countries, paymentMethodGroups, paymentMethods } from '../../db/schema'
import { fieldError } from '../../lib/errors'
import { toMoney } from '../../lib/money'
import { getProvider } from '../../providers'
import { errorResponses, IdParam, jsonContent } from '../../lib/schemas'
import { patchAudited } from '../../services/admin/patch'
import { Int, jsonBody, Money, Text } from './fields'
import { adminRoute, staffOf } from './guard'

type Country = typeof countries.$inferSelect
type Group = typeof paymentMethodGroups.$inferSelect
type Method = typeof paymentMethods.$inferSelect

const methodOut = (m: Method) => ({
  id: m.id,
  name: m.name,
  title: m.title,
  provider: m.provider,
  is_active: m.isActive,
  fee_bp: m.fee,
  fix_fee: toMoney(m.fixFee),
  min_amount: toMoney(m.minAmount),
  is_secondary: m.isSecondary,
  currencies: m.currencies,
  sort_order: m.sortOrder,
})
const groupOut = (g: Group, methods: Method[]) => ({
  id: g.id,
  name: g.name,
  short_name: g.shortName,
  order: g.order,
  methods: methods.filter((m) => m.groupId === g.id).map(methodOut),
})
const countryOut = (c: Country, groups: Group[], methods: Method[]) => ({
  id: c.id,
  name: c.name,
  flag: c.flag,
  currency: c.currency,
  rate_micro: c.rateMicro,
  is_default: c.isDefault,
  sort_order: c.sortOrder,
  method_groups: groups.filter((g) => g.countryId === c.id).map((g) => groupOut(g, methods)),
})

const MethodOut = z
  .object({
    id: z.number().int(),
    name: z.string(),
    title: z.string(),
    provider: z.string(),
    is_active: z.boolean(),
    fee_bp: z.number().int().openapi({ description: 'Percent fee in basis points (1 % = 100)' }),
    fix_fee: z.string(),
    min_amount: z.string(),
    is_secondary: z.boolean(),
    currencies: z.array(z.string()),
    sort_order: z.number().int().openapi({ description: 'Place within its group (then by id)' }),
  })
  .openapi('AdminPaymentMethod')
const GroupOut = z
  .object({
    id: z.number().int(),
    name: z.string(),
    short_name: z.string(),
    order: z.number().int(),
    methods: z.array(MethodOut),
  })
  .openapi('AdminPaymentMethodGroup')
const CountryOut = z
  .object({
    id: z.number().int(),
    name: z.string(),
    flag: z.string(),
    currency: z.string(),
    rate_micro: z.number().int().openapi({ description: 'Units of the currency per rouble × 1 000 000' }),
    is_default: z.boolean(),
    sort_order: z.number().int(),
    method_groups: z.array(GroupOut),
  })
  .openapi('AdminCountry')

const CountryPatch = z
  .object({
    name: Text(100).min(1).optional(),
    rate_micro: Int(1, 2_000_000_000).optional(),
    sort_order: Int(-1000, 1000).optional(),
  })
  .openapi('AdminCountryPatch')
const GroupPatch = z
  .object({
    name: Text(100).min(1).optional(),
    short_name: Text(40).min(1).optional(),
    order: Int(-1000, 1000).optional(),
  })
  .openapi('AdminPaymentMethodGroupPatch')
const MethodPatch = z
  .object({
    title: Text(100).min(1).optional(),
    is_active: z.boolean().optional(),
    fee_bp: Int(0, 5000).optional(),
    fix_fee: Money.optional(),
    min_amount: Money.optional(),
    is_secondary: z.boolean().optional(),
    sort_order: Int(-1000, 1000).optional(),
  })
  .openapi('AdminPaymentMethodPatch')

const all = adminRoute('owner', {
  method: 'get',
  path: '/api/admin/payments/',
  summary: 'Countries with their method groups and methods, inactive ones too',
  responses: { 200: jsonContent(z.array(CountryOut)), ...errorResponses(403, 404) },
})
const patchRoute = <P extends string, S extends z.ZodTypeAny>(path: P, summary: string, schema: S) =>
  adminRoute('owner', {
    method: 'patch',
    path,
    summary,
    request: { params: IdParam, ...jsonBody(schema) },
    responses: { 200: jsonContent(z.object({ ok: z.literal(true) })), ...errorResponses(400, 403, 404) },
  })
const countryPatch = patchRoute(
  '/api/admin/payments/countries/{id}/',
  'Change a country (name, rate, order)',
  CountryPatch,
)
const groupPatch = patchRoute('/api/admin/payments/method_groups/{id}/', 'Change a method group', GroupPatch)
const methodPatch = patchRoute(
  '/api/admin/payments/methods/{id}/',
  'Change a payment method (active, fees, minimum, place in its group)',
  MethodPatch,
)

export function registerAdminPayments(app: ApiApp) {
  app.openapi(all, async (c) => {
    const { db } = c.var.deps
    const [cs, gs, ms] = await Promise.all([
      db.select().from(countries).orderBy(asc(countries.sortOrder), asc(countries.id)),
      db
        .select()
        .from(paymentMethodGroups)
        .orderBy(asc(paymentMethodGroups.order), asc(paymentMethodGroups.id)),
      db.select().from(paymentMethods).orderBy(asc(paymentMethods.sortOrder), asc(paymentMethods.id)),
    ])
    return c.json(
      cs.map((x) => countryOut(x, gs, ms)),
      200,
    )
  })

  app.openapi(countryPatch, async (c) => {
    const staff = staffOf(c)
    const b = c.req.valid('json') as z.infer<typeof CountryPatch>
    await c.var.deps.db.transaction((tx) =>
      patchAudited<Country>(
        tx,
        staff,
        { table: countries, id: countries.id, entity: 'country' },
        c.req.valid('param').id,
        {
          name: b.name,
          rateMicro: b.rate_micro,
          sortOrder: b.sort_order,
        },
      ),
    )
    return c.json({ ok: true as const }, 200)
  })

  app.openapi(groupPatch, async (c) => {
    const staff = staffOf(c)
    const b = c.req.valid('json') as z.infer<typeof GroupPatch>
    await c.var.deps.db.transaction((tx) =>
      patchAudited<Group>(
        tx,
        staff,
        { table: paymentMethodGroups, id: paymentMethodGroups.id, entity: 'payment_method_group' },
        c.req.valid('param').id,
        { name: b.name, shortName: b.short_name, order: b.order },
      ),
    )
    return c.json({ ok: true as const }, 200)
  })

  app.openapi(methodPatch, async (c) => {
    const staff = staffOf(c)
    const b = c.req.valid('json') as z.infer<typeof MethodPatch>
    if (b.is_active === true) {
      // what the back-office shows as on is what the buyer can use: no keys, no switching on
      const [m] = await c.var.deps.db
        .select({ provider: paymentMethods.provider })
        .from(paymentMethods)
        .where(eq(paymentMethods.id, c.req.valid('param').id))
      if (m && !getProvider(m.provider)?.isAvailable(c.var.deps))
        throw fieldError('is_active', 'payment_provider_not_configured', { provider: m.provider })
    }
    await c.var.deps.db.transaction((tx) =>
      patchAudited<Method>(
        tx,
        staff,
        { table: paymentMethods, id: paymentMethods.id, entity: 'payment_method' },
        c.req.valid('param').id,
        {
          title: b.title,
          isActive: b.is_active,
          fee: b.fee_bp,
          fixFee: b.fix_fee,
          minAmount: b.min_amount,
          isSecondary: b.is_secondary,
          sortOrder: b.sort_order,
        },
      ),
    )
    return c.json({ ok: true as const }, 200)
  })
}
