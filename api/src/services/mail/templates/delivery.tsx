// The mails of manual delivery: the buyer's «заказ оплачен — ожидает выдачи» (with the Standoff
// listing price), and the staff's notice of an order waiting past its game's promised time.
import { loadDeliveryFacts } from '../../delivery/facts'
import { fill, formatDate, M, orderNumber } from '../messages'
import { loadOrderForMail } from '../order-data'
import { Action, H2, Layout, P } from './layout'
import type { Template } from './types'

export const orderPaid: Template<'order_paid'> = async (data, ctx) => {
  const [o, facts] = await Promise.all([
    loadOrderForMail(ctx.db, data.orderId),
    loadDeliveryFacts(ctx.db, data.orderId),
  ])
  if (!o?.email || !facts) return null
  const placed = fill(M.order.placed, { number: orderNumber(o.id), date: formatDate(o.created) })
  return {
    orderId: o.id,
    subject: fill(M.order_paid.subject, { number: orderNumber(o.id) }),
    body: (
      <Layout preview={M.order_paid.preview} heading={M.order_paid.heading} publicUrl={ctx.config.publicUrl}>
        <P>{fill(M.order_paid.intro, { placed, minutes: facts.deliveryMinutes })}</P>
        {facts.listing ? (
          <>
            <H2>{M.order_paid.listing_heading}</H2>
            <P>{fill(M.order_paid.listing, { skin: facts.listing.skin, price: facts.listing.price })}</P>
            <P>{M.order_paid.listing_done}</P>
          </>
        ) : null}
        <Action href={`${ctx.config.publicUrl}/orders/${o.id}/pay`}>{M.order.open}</Action>
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
  const placed = fill(M.order.placed, { number: orderNumber(o.id), date: formatDate(o.created) })
  return {
    orderId: o.id,
    subject: fill(M.delivery_overdue.subject, {
      number: orderNumber(o.id),
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
