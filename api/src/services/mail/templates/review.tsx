// The mails of review before delivery (issue 34): the buyer's «заказ на проверке» (no code, no
// reason), and the staff's notice of an order still held 30 minutes on.
import { fill, formatDate, M, orderNumber } from '../messages'
import { loadOrderForMail } from '../order-data'
import { Action, Layout, P } from './layout'
import type { Template } from './types'

export const orderHeld: Template<'order_held'> = async (data, ctx) => {
  const o = await loadOrderForMail(ctx.db, data.orderId)
  if (!o?.email) return null
  const placed = fill(M.order.placed, {
    number: orderNumber(o.number),
    date: formatDate(o.created, ctx.timeZone),
  })
  return {
    orderId: o.id,
    subject: fill(M.review.held_subject, { number: orderNumber(o.number) }),
    body: (
      <Layout
        preview={M.review.held_preview}
        heading={M.review.held_heading}
        publicUrl={ctx.config.publicUrl}
      >
        <P>{fill(M.review.held_intro, { placed })}</P>
        <Action href={`${ctx.config.publicUrl}/orders/${o.id}/pay`}>{M.order.open}</Action>
      </Layout>
    ),
  }
}

export const reviewOverdue: Template<'review_overdue'> = async (data, ctx) => {
  const o = await loadOrderForMail(ctx.db, data.orderId)
  if (!o) return null
  const placed = fill(M.order.placed, {
    number: orderNumber(o.number),
    date: formatDate(o.created, ctx.timeZone),
  })
  return {
    orderId: o.id,
    subject: fill(M.review.overdue_subject, { number: orderNumber(o.number) }),
    body: (
      <Layout
        preview={M.review.overdue_preview}
        heading={M.review.overdue_heading}
        publicUrl={ctx.config.publicUrl}
      >
        <P>{fill(M.review.overdue_intro, { placed })}</P>
        <Action href={`${ctx.config.publicUrl}/admin/delivery/review`}>{M.review.overdue_open}</Action>
      </Layout>
    ),
  }
}
