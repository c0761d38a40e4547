// Back-office overview, the caller's own role, and the audit log.
import { z } from '@hono/zod-openapi'
import type { ApiApp } from '../../context'
import { pageNumberPage, pageQuery, pageSchema } from '../../lib/pagination'
import { errorResponses, jsonContent } from '../../lib/schemas'
import { LEGAL_SLUGS } from '../../../../shared/legal-documents'
import { auditPage } from '../../services/admin/audit'
import { ORDER_STATUSES } from '../../services/admin/orders'
import { overview } from '../../services/admin/overview'
import { STAFF_ROLES } from '../../services/admin/roles'
import { openAlerts } from '../../services/alerts/run'
import { unpublishedLegal } from '../../services/content/legal-templates'
import { openDifferenceCounts } from '../../services/reconciliation/run'
import { mailHealth } from '../../services/mail/health'
import { usableMethodCount } from '../../services/payments/method-setup'
import { failedReceipts } from '../../services/receipts/admin'
import { getSellerSettings, sellerWarnings } from '../../services/receipts/settings'
import { getShopSettings } from '../../services/shop/settings'
import { adminRoute, staffOf } from './guard'
import { message } from '../../lib/errors'

const Amount = z.object({ currency: z.string(), amount: z.string() })
const Overview = z
  .object({
    days: z.number().int(),
    revenue_by_day: z.array(Amount.extend({ day: z.string() })),
    revenue: z.array(
      Amount.extend({
        refunds: z.string().openapi({ description: 'payments of orders refunded in the period' }),
        net: z.string().openapi({ description: 'amount (gross) minus refunds' }),
      }),
    ),
    orders_by_status: z.record(z.enum(ORDER_STATUSES), z.number().int()),
    orders_created: z.number().int(),
    orders_paid: z.number().int(),
    paid_percent: z.number().int(),
    top_products: z.array(
      z.object({ id: z.number().int(), title: z.string(), quantity: z.number().int(), revenue: z.string() }),
    ),
    low_stock: z.array(
      z.object({
        kind: z.enum(['product', 'gift']),
        id: z.number().int(),
        title: z.string(),
        free: z.number().int(),
        sold: z.number().int(),
      }),
    ),
    mail: z
      .object({
        transport: z.enum(['smtp', 'file']),
        not_configured: z
          .boolean()
          .openapi({ description: 'production without SMTP_URL: mail goes to files' }),
        last_sent_at: z.string().nullable(),
        retrying: z.number().int(),
        dead: z.number().int().openapi({ description: 'mails given up on in the last 7 days' }),
      })
      .openapi('AdminMailHealth'),
    payments_usable: z.number().int().optional().openapi({
      description:
        'Methods a buyer can pay with now (on, provider keys set, country not hidden); 0 is shown in red',
    }),
    seller_warnings: z.array(z.string()).optional().openapi({
      description: 'Production only: requisites missing, receipts off or in the sandbox (shown in red)',
    }),
    failed_receipts: z
      .array(
        z.object({
          id: z.number().int(),
          order_id: z.uuid(),
          kind: z.string(),
          reason: z.string().nullable(),
        }),
      )
      .optional(),
    alerts: z
      .array(
        z.object({
          cause: z.string(),
          source: z.string(),
          detail: z.string(),
          link: z.string(),
          opened_at: z.string(),
        }),
      )
      .openapi({
        description: 'Open staff alerts (issue 37), newest first; each was mailed once in a digest',
      }),
    setup: z
      .object({
        shop_named: z.boolean().openapi({ description: 'the owner saved the shop name (/api/admin/shop/)' }),
        shop_name: z.string(),
        payment_methods: z.number().int().openapi({
          description: 'active payment methods buyers can pay by (sandbox ones only with sandbox payments)',
        }),
        missing_articles: z.array(z.enum(LEGAL_SLUGS)).optional().openapi({
          description:
            'Legal documents (privacy-policy, consent, user-agreement, refunds) not published yet: each is set up from its template in /admin/articles (issue 47)',
        }),
      })
      .openapi({ description: 'What a new shop still lacks (issue 37): shown on the overview until fixed' }),
    reconciliation: z
      .object({ open: z.number().int().openapi({ description: 'differences nobody explained yet' }) })
      .optional()
      .openapi({ description: '«Сверка» with the payment providers (issue 43): open differences' }),
    awaiting_delivery: z
      .object({
        count: z.number().int(),
        oldest_waiting_seconds: z.number().int().nullable(),
      })
      .openapi({
        description:
          'Paid orders of manual games waiting for a person (the delivery desk), and how long the oldest waited',
      }),
    needs_attention: z
      .array(
        z.object({
          id: z.uuid(),
          number: z.number().int().openapi({ description: 'The short order number people read out' }),
          status: z.enum(ORDER_STATUSES),
          reason: z.string().nullable(),
          created: z.string(),
          waiting: z.enum(['delivery', 'review', 'escalated']).nullable().openapi({
            description:
              'What the paid order waits for: a person to deliver it, the antifraud review, or (escalated) the owner: taken but past its auto-refund deadline',
          }),
        }),
      )
      .openapi({
        description:
          'Paid orders waiting for delivery or review, paid orders stuck or failed — none already refunded',
      }),
  })
  .openapi('AdminOverview')

const overviewRoute = adminRoute('owner', {
  method: 'get',
  path: '/api/admin/overview/',
  summary: 'Revenue, orders by status, paid share, top products, low stock, orders that need a person',
  request: {
    query: z.object({
      days: z
        .enum(['1', '7', '30'], message('field_overview_days'))
        .optional()
        .transform((d) => Number(d ?? 7)),
    }),
  },
  responses: { 200: jsonContent(Overview), ...errorResponses(400, 403, 404) },
})

const me = adminRoute('support', {
  method: 'get',
  path: '/api/admin/me/',
  summary: 'The caller’s back-office role',
  responses: {
    200: jsonContent(z.object({ email: z.string(), role: z.enum(STAFF_ROLES) }).openapi('AdminMe')),
    ...errorResponses(404),
  },
})

const AuditItem = z
  .object({
    id: z.number().int(),
    actor: z.string().nullable(),
    action: z.string(),
    entity: z.string(),
    entity_id: z.string(),
    before: z.unknown(),
    after: z.unknown(),
    created: z.string(),
  })
  .openapi('AdminAuditEntry')
const auditRoute = adminRoute('owner', {
  method: 'get',
  path: '/api/admin/audit/',
  summary: 'The audit log: every back-office change, newest first',
  request: {
    query: pageQuery.extend({
      entity: z.string().max(40).optional(),
      entity_id: z.string().max(64).optional(),
    }),
  },
  responses: {
    200: jsonContent(pageSchema(AuditItem).openapi('AdminAuditPage')),
    ...errorResponses(400, 403, 404),
  },
})

export function registerAdminOverview(app: ApiApp) {
  app.openapi(me, async (c) => {
    const staff = staffOf(c)
    return c.json({ email: staff.email, role: staff.role }, 200)
  })

  app.openapi(overviewRoute, async (c) => {
    const { db, config } = c.var.deps
    const [base, mail, seller, failed, usable, alerts, shop, differences, legal] = await Promise.all([
      overview(db, c.req.valid('query').days),
      mailHealth(db, config.mail, !config.demo),
      getSellerSettings(db),
      failedReceipts(db, 20),
      usableMethodCount(c.var.deps),
      openAlerts(db),
      getShopSettings(db, config),
      openDifferenceCounts(db),
      unpublishedLegal(db),
    ])
    return c.json(
      {
        ...base,
        mail,
        reconciliation: { open: differences.reduce((n, d) => n + d.n, 0) },
        payments_usable: usable,
        alerts,
        setup: {
          shop_named: shop.saved,
          shop_name: shop.name,
          payment_methods: usable,
          missing_articles: legal,
        },
        seller_warnings: sellerWarnings(seller, config),
        failed_receipts: failed.map((r) => ({
          id: r.id,
          order_id: r.order_id,
          kind: r.kind,
          reason: r.reason,
        })),
      },
      200,
    )
  })

  app.openapi(auditRoute, async (c) => {
    const { page = 1, page_size: size = 50, entity, entity_id: entityId } = c.req.valid('query')
    const { count, rows } = await auditPage(c.var.deps.db, { entity, entityId }, page, size)
    const results = rows.map((r) => ({
      id: r.id,
      actor: r.actorEmail,
      action: r.action,
      entity: r.entity,
      entity_id: r.entityId,
      before: r.before,
      after: r.after,
      created: r.created.toISOString(),
    }))
    return c.json(pageNumberPage(c.req.url, count, page, size, results), 200)
  })
}
