// The mails of manual delivery: the buyer's «заказ оплачен — ожидает выдачи» (with the Standoff
// listing price), the staff's notice of an order waiting past its game's promised time, the staff's
// warning before an automatic refund and the owners' notice of a taken order past its deadline.
import { eq } from 'drizzle-orm'
import { orders } from '../../../db/schema'
import { hoursLeft } from '../../delivery/waiting'
import { loadDeliveryFacts } from '../../delivery/facts'
import { fill, formatDate, formatDecimalText, M, orderNumber } from '../messages'
import { loadOrderForMail } from '../order-data'
import { Action, H2, Layout, P } from './layout'
import type { Template } from './types'

export const orderPaid: Template<'order_paid'> = async (data, ctx) => {
  const [o, facts] = await Promise.all([
    loadOrderForMail(ctx.db, data.orderId),
    loadDeliveryFacts(ctx.db, data.orderId),
  ])
  if (!o?.email || !facts) return null
  const placed = fill(M.order.placed, {
    number: orderNumber(o.number),
    date: formatDate(o.created, ctx.timeZone),
  })
  return {
    orderId: o.id,
    subject: fill(M.order_paid.subject, { number: orderNumber(o.number) }),
    body: (
      <Layout preview={M.order_paid.preview} heading={M.order_paid.heading} publicUrl={ctx.config.publicUrl}>
        <P>{fill(M.order_paid.intro, { placed, minutes: facts.deliveryMinutes })}</P>
        {facts.listing ? (
          <>
            <H2>{M.order_paid.listing_heading}</H2>
            <P>
              {fill(M.order_paid.listing, {
                skin: facts.listing.skin,
                price: formatDecimalText(facts.listing.price),
              })}
            </P>
            <P>{M.order_paid.listing_done}</P>
          </>
        ) : null}
        <Action href={`${ctx.config.publicUrl}/orders/${o.id}/pay`}>{M.order.open}</Action>
        {ctx.config.telegram ? (
          // the page with «Следить в Telegram» (issue 49): the one-time link is made when pressed
          <>
            <P>{M.order_paid.telegram_note}</P>
            <Action href={`${ctx.config.publicUrl}/orders/${o.id}/telegram`}>{M.order_paid.telegram}</Action>
          </>
        ) : null}
      </Layout>
    ),
  }
}

export const deliveryOverdue: Template<'delivery_overdue'> = async (data, ctx) => {
  const [o, facts] = await Promise.all([
    loadOrderForMail(ctx.db, data.orderId),
    loadDeliveryFacts(ctx.db, data.orderId),
  ])
  if (!o || !facts?.awaiting) return null
  const placed = fill(M.order.placed, {
    number: orderNumber(o.number),
    date: formatDate(o.created, ctx.timeZone),
  })
  return {
    orderId: o.id,
    subject: fill(M.delivery_overdue.subject, {
      number: orderNumber(o.number),
      minutes: facts.deliveryMinutes,
    }),
    body: (
      <Layout
        preview={M.delivery_overdue.preview}
        heading={M.delivery_overdue.heading}
        publicUrl={ctx.config.publicUrl}
      >
        <P>
          {fill(M.delivery_overdue.intro, { placed, game: facts.gameTitle, minutes: facts.deliveryMinutes })}
        </P>
        <Action href={`${ctx.config.publicUrl}/admin/delivery`}>{M.delivery_overdue.open}</Action>
      </Layout>
    ),
  }
}

export const deliveryRefundWarning: Template<'delivery_refund_warning'> = async (data, ctx) => {
  const [o, facts, [clock]] = await Promise.all([
    loadOrderForMail(ctx.db, data.orderId),
    loadDeliveryFacts(ctx.db, data.orderId),
    ctx.db
      .select({ due: orders.refundDueAt, takenBy: orders.takenBy })
      .from(orders)
      .where(eq(orders.id, data.orderId)),
  ])
  // delivered, refunded or taken meanwhile: nothing to warn about any more
  if (!o || !facts?.awaiting || !clock?.due || clock.takenBy !== null) return null
  const hours = hoursLeft(clock.due, new Date())
  const placed = fill(M.order.placed, {
    number: orderNumber(o.number),
    date: formatDate(o.created, ctx.timeZone),
  })
  return {
    orderId: o.id,
    subject: fill(M.delivery_refund_warning.subject, { number: orderNumber(o.number), hours }),
    body: (
      <Layout
        preview={M.delivery_refund_warning.preview}
        heading={M.delivery_refund_warning.heading}
        publicUrl={ctx.config.publicUrl}
      >
        <P>{fill(M.delivery_refund_warning.intro, { placed, game: facts.gameTitle, hours })}</P>
        <P>{M.delivery_refund_warning.rule}</P>
        <Action href={`${ctx.config.publicUrl}/admin/delivery`}>{M.delivery_overdue.open}</Action>
      </Layout>
    ),
  }
}

export const deliveryEscalated: Template<'delivery_escalated'> = async (data, ctx) => {
  const [o, facts] = await Promise.all([
    loadOrderForMail(ctx.db, data.orderId),
    loadDeliveryFacts(ctx.db, data.orderId),
  ])
  if (!o || !facts?.awaiting) return null
  const placed = fill(M.order.placed, {
    number: orderNumber(o.number),
    date: formatDate(o.created, ctx.timeZone),
  })
  return {
    orderId: o.id,
    subject: fill(M.delivery_escalated.subject, { number: orderNumber(o.number) }),
    body: (
      <Layout
        preview={M.delivery_escalated.preview}
        heading={M.delivery_escalated.heading}
        publicUrl={ctx.config.publicUrl}
      >
        <P>{fill(M.delivery_escalated.intro, { placed, game: facts.gameTitle })}</P>
        <P>{M.delivery_escalated.choose}</P>
        <Action href={`${ctx.config.publicUrl}/admin/delivery?filter=escalated`}>
          {M.delivery_overdue.open}
        </Action>
      </Layout>
    ),
  }
}
