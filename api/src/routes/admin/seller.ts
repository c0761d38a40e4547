// «Реквизиты и чеки»: the seller's requisites and receipt settings (owner only), the refused
// receipts, and their resend.
import { z } from '@hono/zod-openapi'
import type { ApiApp } from '../../context'
import { message } from '../../lib/errors'
import { errorResponses, IdParam, jsonContent } from '../../lib/schemas'
import { adminReceiptOut, failedReceipts, resendReceipt } from '../../services/receipts/admin'
import {
  ITEM_KINDS,
  PAYMENT_OBJECTS,
  RECEIPT_TRANSPORTS,
  TAX_SYSTEMS,
  VAT_RATES,
} from '../../services/receipts/model'
import { sellerView, updateSellerSettings } from '../../services/receipts/seller-edit'
import { getSellerSettings, type SellerSettings } from '../../services/receipts/settings'
import { jsonBody, Text } from './fields'
import { adminRoute, staffOf } from './guard'

const Rule = z.object({
  vat: z.enum(VAT_RATES, message('field_vat_choose')),
  payment_object: z.enum(PAYMENT_OBJECTS, message('field_payment_object_choose')),
})
const Rules = z.object(
  Object.fromEntries(ITEM_KINDS.map((k) => [k, Rule])) as Record<(typeof ITEM_KINDS)[number], typeof Rule>,
)

const Seller = z
  .object({
    legal_form: Text(20).openapi({ description: 'ООО, ИП, АО…' }),
    company_name: Text(300),
    // the shape here (published as the pattern); the check digits, which a schema cannot state, in
    // the handler with their own code (issue 44: `validation_error` is a request off the contract)
    inn: z
      .string()
      .trim()
      .max(12, message('seller_inn_invalid'))
      .regex(/^(\d{10}|\d{12})?$/, message('seller_inn_invalid'))
      .openapi({
        description:
          'ИНН: 10 digits (organisation) or 12 (ИП), check digits valid (else seller_inn_invalid); empty: none',
      }),
    ogrn: z
      .string()
      .trim()
      .max(15, message('seller_ogrn_invalid'))
      .regex(/^(\d{13}|\d{15})?$/, message('seller_ogrn_invalid'))
      .openapi({
        description:
          'ОГРН (13 digits) or ОГРНИП (15), check digit valid (else seller_ogrn_invalid); empty: none',
      }),
    address: Text(500),
    email: z.union([z.literal(''), z.email(message('field_email_format')).max(200)]),
    phone: Text(40),
    extra: Text(2000),
    tax_system: z.enum(TAX_SYSTEMS, message('field_tax_system_choose')),
    receipts_enabled: z.boolean(message('field_yes_no')),
    receipt_transport: z.enum(RECEIPT_TRANSPORTS, message('field_receipt_route_choose')),
    item_rules: Rules,
  })
  .openapi('AdminSeller')

type SellerIn = z.infer<typeof Seller>

const out = (s: SellerSettings): SellerIn => sellerView(s)

const getRoute = adminRoute('owner', {
  method: 'get',
  path: '/api/admin/seller/',
  summary: 'The seller’s requisites and receipt settings',
  responses: { 200: jsonContent(Seller), ...errorResponses(403, 404) },
})
const putRoute = adminRoute('owner', {
  method: 'put',
  path: '/api/admin/seller/',
  summary: 'Saves the requisites (ИНН and ОГРН checksums checked) and receipt settings',
  request: jsonBody(Seller),
  responses: { 200: jsonContent(Seller), ...errorResponses(400, 403, 404) },
})

const AdminReceipt = z
  .object({
    id: z.number().int(),
    order_id: z.uuid(),
    order_number: z
      .number()
      .int()
      .optional()
      .openapi({ description: 'Our extension (decision 135): the order’s short number for people' }),
    kind: z.string(),
    status: z.string(),
    transport: z.string(),
    external_id: z.string(),
    total: z.string(),
    reason: z.string().nullable(),
    created: z.string(),
  })
  .openapi('AdminReceipt')

const failedRoute = adminRoute('owner', {
  method: 'get',
  path: '/api/admin/receipts/failed/',
  summary: 'Receipts the fiscal service refused, newest first (they need the owner)',
  responses: { 200: jsonContent(z.array(AdminReceipt)), ...errorResponses(403, 404) },
})
const resendRoute = adminRoute('owner', {
  method: 'post',
  path: '/api/admin/receipts/{id}/resend/',
  summary: 'Sends a refused receipt again with the current requisites and transport',
  request: { params: IdParam },
  responses: { 200: jsonContent(AdminReceipt), ...errorResponses(403, 404, 409) },
})

export function registerAdminSeller(app: ApiApp) {
  app.openapi(getRoute, async (c) => c.json(out(await getSellerSettings(c.var.deps.db)), 200))

  app.openapi(putRoute, async (c) => {
    const b = c.req.valid('json') as SellerIn
    const { db, config } = c.var.deps
    const saved = await updateSellerSettings(db, config, staffOf(c), {
      legalForm: b.legal_form,
      companyName: b.company_name,
      inn: b.inn,
      ogrn: b.ogrn,
      address: b.address,
      email: b.email,
      phone: b.phone,
      extra: b.extra,
      taxSystem: b.tax_system,
      receiptsEnabled: b.receipts_enabled,
      transport: b.receipt_transport,
      itemRules: b.item_rules,
    })
    return c.json(out(saved), 200)
  })

  app.openapi(failedRoute, async (c) => c.json(await failedReceipts(c.var.deps.db), 200))

  app.openapi(resendRoute, async (c) => {
    const { db, config, jobs } = c.var.deps
    const row = await resendReceipt(db, config, c.req.valid('param').id, staffOf(c))
    jobs?.wake()
    return c.json(adminReceiptOut(row), 200)
  })
}
