// The owner's block lists (issue 34, decision 091): list, add, remove, and block everything of an
// order in one action. Owners only; every change is audited. A blocked buyer's order and payment
// start are refused with a neutral message (services/risk/gate.ts).
import { z } from '@hono/zod-openapi'
import type { ApiApp } from '../../context'
import { fail, message } from '../../lib/errors'
import { errorResponses, IdParam, jsonContent, UuidParam } from '../../lib/schemas'
import {
  addBlock,
  BLOCK_KINDS,
  blockOrder,
  listBlocks,
  normaliseBlock,
  removeBlock,
} from '../../services/risk/blocks'
import { adminRoute, staffOf } from './guard'

const Block = z
  .object({
    id: z.number().int(),
    kind: z.enum(BLOCK_KINDS),
    value: z
      .string()
      .openapi({ description: 'Email, domain, address or CIDR network, or the card’s keyed hash' }),
    note: z.string().nullable(),
    created_by: z.string().nullable(),
    created: z.string(),
  })
  .openapi('BlockEntry')

const BlockInput = z
  .object({
    kind: z.enum(BLOCK_KINDS, message('field_block_kind')),
    value: z
      .string(message('field_value_required'))
      .trim()
      .min(1, message('field_value_required'))
      .max(300, message('field_max_chars', { max: 300 }))
      .openapi({
        description:
          'An email, an email domain, an address or CIDR network; a card as its first 6 and last 4 digits ("411111******1111") or its keyed hash',
      }),
    note: z
      .string(message('field_note_string'))
      .trim()
      .max(300, message('field_max_chars', { max: 300 }))
      .nullish(),
  })
  .openapi('BlockInput')

const Added = z
  .object({ entry: Block, added: z.boolean().openapi({ description: 'False when it was already listed' }) })
  .openapi('BlockAdded')

const toWire = (r: Awaited<ReturnType<typeof listBlocks>>[number]) => ({
  id: r.id,
  kind: r.kind,
  value: r.value,
  note: r.note,
  created_by: r.createdBy,
  created: r.created.toISOString(),
})

const list = adminRoute('owner', {
  method: 'get',
  path: '/api/admin/blocks/',
  summary: 'The block lists: blocked emails, domains, addresses or networks and cards',
  description:
    'Every entry of the owner’s block lists, oldest first. A blocked buyer’s order and payment start are refused with a neutral message; a payment that still succeeds is held for review.',
  responses: { 200: jsonContent(z.object({ results: z.array(Block) })), ...errorResponses(404) },
})

const add = adminRoute('owner', {
  method: 'post',
  path: '/api/admin/blocks/',
  summary: 'Block an email, a domain, an address or network, or a card; audited',
  description:
    'Adds one entry. An entry already listed is returned unchanged (added: false). A card is stored only as its keyed hash.',
  request: { body: { content: { 'application/json': { schema: BlockInput } }, required: true } },
  responses: { 200: jsonContent(Added), ...errorResponses(400, 404) },
})

const remove = adminRoute('owner', {
  method: 'delete',
  path: '/api/admin/blocks/{id}/',
  summary: 'Unblock: remove one entry of the block lists; audited',
  description: 'Removes the entry; the buyer it blocked may order and pay again.',
  request: { params: IdParam },
  responses: { 204: { description: 'Removed' }, ...errorResponses(400, 404) },
})

const fromOrder = adminRoute('owner', {
  method: 'post',
  path: '/api/admin/orders/{id}/block/',
  summary: 'Block everything of an order: its email, the addresses that paid and the cards; audited',
  description:
    'One action from a held, rejected or disputed order: its email, the client addresses of its payments and the cards that paid go on the block lists (entries already listed stay as they are).',
  request: { params: UuidParam },
  responses: {
    200: jsonContent(z.object({ results: z.array(Added) }).openapi('OrderBlocked')),
    ...errorResponses(400, 404),
  },
})

export function registerAdminBlocks(app: ApiApp) {
  app.openapi(list, async (c) => c.json({ results: (await listBlocks(c.var.deps.db)).map(toWire) }, 200))
  app.openapi(add, async (c) => {
    const body = c.req.valid('json')
    const value = normaliseBlock(body.kind, body.value, c.var.deps.config.risk.cardKey)
    const out = await addBlock(c.var.deps.db, staffOf(c), { kind: body.kind, value, note: body.note || null })
    return c.json({ entry: toWire(out.row), added: out.added }, 200)
  })
  app.openapi(remove, async (c) => {
    const { id } = c.req.valid('param')
    const gone = await removeBlock(c.var.deps.db, staffOf(c), id)
    if (!gone) throw fail(404, 'block_not_found')
    return c.body(null, 204)
  })
  app.openapi(fromOrder, async (c) => {
    const id = c.req.valid('param').id.toLowerCase()
    const prefix = c.var.deps.config.clientIpv6Prefix
    const out = await blockOrder(c.var.deps.db, staffOf(c), id, prefix)
    return c.json({ results: out.map((o) => ({ entry: toWire(o.row), added: o.added })) }, 200)
  })
}
