// Consent to personal data processing (152-ФЗ): each one recorded with who (email or account),
// where it was asked, when, from which address and browser. A client of the spec that does not send
// the consent field still creates orders; its orders are recorded as "no consent given".
import { z } from '@hono/zod-openapi'
import type { Db, Tx } from '../../db/client'
import { consents } from '../../db/schema'

/** The optional extension field of the order creation bodies. */
export const ConsentIn = z.boolean('ожидается да или нет').optional().openapi({
  description:
    'Our extension: the buyer ticked «Я даю согласие на обработку персональных данных». Absent: recorded as no consent given',
})

export async function recordConsent(
  db: Db | Tx,
  c: {
    context: 'order' | 'sign_up' | 'gift'
    given: boolean
    email: string | null
    userId: number | null
    orderId?: string | null
    ip: string | null
    userAgent: string | null
    documentVersion?: number | null
  },
): Promise<void> {
  await db.insert(consents).values({
    context: c.context,
    given: c.given,
    email: c.email,
    userId: c.userId,
    orderId: c.orderId ?? null,
    ip: c.ip,
    userAgent: c.userAgent?.slice(0, 500) ?? null,
    documentVersion: c.documentVersion ?? null,
  })
}
