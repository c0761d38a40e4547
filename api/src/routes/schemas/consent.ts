// The consent field of the order creation and sign-up bodies (services/consent/record.ts records it).
import { z } from '@hono/zod-openapi'
import { message } from '../../lib/errors'

/** The optional extension field of the order creation bodies. */
export const ConsentIn = z.boolean(message('field_yes_no')).optional().openapi({
  description:
    'Our extension: the buyer ticked «Я даю согласие на обработку персональных данных». Absent: recorded as no consent given',
})
