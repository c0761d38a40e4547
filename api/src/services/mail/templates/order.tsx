// The order mails: done (what was bought, every code and how to activate it, what was paid), failed
// (why, what happens to the money) and refunded. Each reads the order when it is sent.
import { type Figure, type FigureKind, orderFigures } from '../figures'
import { fill, formatDate, formatMoneyIn, formatRub, M, orderNumber } from '../messages'
import { loadOrderForMail, type OrderMailData, orderRefundOf, paymentMethodTitle } from '../order-data'
import { Action, Code, Facts, H2, Layout, Muted, P } from './layout'
import { receiptsOf } from '../../receipts/view'
import { ReceiptNote } from './receipt-note'
import type { RenderContext, Template } from './types'

const orderUrl = (ctx: RenderContext, id: string) => `${ctx.config.publicUrl}/orders/${id}/pay`

const placed = (o: OrderMailData, ctx: RenderContext) =>
  fill(M.order.placed, { number: orderNumber(o.number), date: formatDate(o.created, ctx.timeZone) })

/** Amount in a payment currency's minor units, e.g. «10,50 USD». */
const inCurrency = (amount: number, currency: string) =>
  currency === 'RUB'
    ? formatRub(amount)
    : `${Math.trunc(amount / 100)},${String(amount % 100).padStart(2, '0')}\u00a0${currency}`

const GOODS: ReadonlySet<FigureKind> = new Set(['item', 'steam', 'shop_commission'])

/** One money line of figures.ts as a label and a value (a discount with its minus). */
function figureRow(f: Figure): [string, string] {
  const value = f.amount < 0 ? `−${formatRub(-f.amount)}` : formatRub(f.amount)
  if (f.kind === 'item')
    return [
      f.quantity === undefined
        ? (f.title ?? '')
        : fill(M.order.line, { title: f.title ?? '', quantity: f.quantity }),
      value,
    ]
  const label = {
    steam: M.order.steam_line,
    shop_commission: M.order.shop_commission,
    promo: M.order.promo,
    balance_used: M.order.balance_used,
    method_fee: M.order.method_fee,
  }[f.kind]
  return [label, value]
}

/** What was bought, with prices, and the shop's commission when it takes one (Steam). */
function itemRows(o: OrderMailData): Array<[string, string]> {
  return orderFigures(o)
    .figures.filter((f) => GOODS.has(f.kind))
    .map(figureRow)
}

/** Discount, balance, the method's fee, the amount paid and how: with the goods, they add up. */
function paymentRows(o: OrderMailData): Array<[string, string]> {
  const { figures, charged, methodFee } = orderFigures(o)
  const rows = figures.filter((f) => !GOODS.has(f.kind)).map(figureRow)
  // what the provider charged, the method's fee included (the refund returns the same)
  const paid =
    methodFee > 0
      ? fill(M.charged.with_fee, { paid: formatRub(charged), fee: formatRub(methodFee) })
      : formatRub(charged)
  const other =
    o.payment && o.payment.currency !== 'RUB' ? ` (${inCurrency(o.payment.amount, o.payment.currency)})` : ''
  rows.push([M.order.total_paid, `${paid}${other}`])
  if (o.payment?.method) rows.push([M.order.method, o.payment.method])
  return rows
}

/** The game above its lines (a gift's title is its one line already). */
const Title = ({ o }: { o: OrderMailData }) =>
  o.lines.length > 0 || o.kind === 'SteamOrder' ? <P>{o.title}</P> : null

function OrderLink({ o, ctx }: { o: OrderMailData; ctx: RenderContext }) {
  return (
    <>
      <Action href={orderUrl(ctx, o.id)}>{M.order.open}</Action>
      {o.hasAccount ? <Muted>{M.order.account_note}</Muted> : null}
    </>
  )
}

/** The top-up a code-less order made (Standoff, Steam, supply channel). */
function deliveredText(o: OrderMailData): string | null {
  const text = deliveredTo(o)
  return text && o.player ? `${text} ${fill(M.order_done.player, { nickname: o.player })}` : text
}

function deliveredTo(o: OrderMailData): string | null {
  const account = o.account ?? ''
  switch (o.kind) {
    case 'StandoffOrder':
      return fill(M.order_done.standoff, { account })
    case 'SteamOrder':
      return fill(M.order_done.steam, { account, amount: formatRub(o.steamAmount ?? 0) })
    case 'MooGoldOrder':
      return o.server
        ? fill(M.order_done.supply_server, { account, server: o.server })
        : fill(M.order_done.supply, { account })
    default:
      return null
  }
}

export const orderDone: Template<'order_done'> = async (data, ctx) => {
  const o = await loadOrderForMail(ctx.db, data.orderId)
  if (!o?.email) return null
  const codes = o.lines.flatMap((l) => l.codes)
  const hasCodes = codes.length > 0 || o.giftCode !== null
  const delivered = deliveredText(o)
  const giftUrl = o.gift ? `${ctx.config.publicUrl}/gifts/detalis/${o.gift.id}` : ctx.config.publicUrl
  return {
    orderId: o.id,
    subject: fill(M.order_done.subject, { number: orderNumber(o.number) }),
    body: (
      <Layout
        preview={hasCodes ? M.order_done.preview : M.order_done.preview_no_codes}
        heading={M.order_done.heading}
        publicUrl={ctx.config.publicUrl}
      >
        <P>{fill(M.order_done.intro, { placed: placed(o, ctx) })}</P>
        {codes.length > 0 ? (
          <>
            <H2>{M.order_done.codes_heading}</H2>
            {codes.map((c) => (
              <Code key={c.code} label={fill(M.order_done.code_uc, { amount: c.amountUc })}>
                {c.code}
              </Code>
            ))}
            <H2>{M.order_done.pubg_howto_heading}</H2>
            <P>{M.order_done.pubg_howto}</P>
            <Muted>{M.order_done.keep_codes}</Muted>
          </>
        ) : null}
        {o.giftCode ? (
          <>
            <H2>{M.order_done.gift_code_heading}</H2>
            <Code>{o.giftCode}</Code>
            <H2>{M.order_done.gift_howto_heading}</H2>
            <P>{o.gift?.description || fill(M.order_done.gift_howto_fallback, { url: giftUrl })}</P>
            <Muted>{M.order_done.keep_codes}</Muted>
          </>
        ) : null}
        {delivered ? (
          <>
            <H2>{M.order_done.delivered_heading}</H2>
            <P>{delivered}</P>
          </>
        ) : null}
        <H2>{M.order.items_heading}</H2>
        <Title o={o} />
        <Facts rows={itemRows(o)} />
        <Facts rows={paymentRows(o)} />
        <ReceiptNote receipts={await receiptsOf(ctx.db, o.id)} kind="sell" />
        <OrderLink o={o} ctx={ctx} />
      </Layout>
    ),
  }
}

/**
 * What happens to the money of a failed order, from its refund: given back automatically through
 * the provider (how much, by which method, when it arrives), already on the balance, or by a person.
 */
async function failedMoneyText(ctx: RenderContext, o: OrderMailData): Promise<string> {
  const refund = await orderRefundOf(ctx.db, o.id)
  if (!refund) return M.order_failed.money
  if (refund.method === 'provider') {
    const method =
      (refund.paymentId ? await paymentMethodTitle(ctx.db, refund.paymentId) : null) ?? o.payment?.method
    const back = refund.amount - refund.toBalance
    const text = fill(M.order_failed.money_provider, { amount: formatRub(back), method: method ?? '' })
    return refund.toBalance > 0
      ? `${text} ${fill(M.order_failed.money_balance, { amount: formatRub(refund.toBalance) })}`
      : text
  }
  if (refund.method === 'balance')
    return fill(M.order_failed.money_balance, { amount: formatRub(refund.toBalance) })
  return fill(M.order_failed.money_manual, { amount: formatRub(refund.amount) })
}

export const orderFailed: Template<'order_failed'> = async (data, ctx) => {
  const o = await loadOrderForMail(ctx.db, data.orderId)
  if (!o?.email) return null
  return {
    orderId: o.id,
    subject: fill(M.order_failed.subject, { number: orderNumber(o.number) }),
    body: (
      <Layout
        preview={M.order_failed.preview}
        heading={M.order_failed.heading}
        publicUrl={ctx.config.publicUrl}
      >
        <P>{fill(M.order_failed.intro, { placed: placed(o, ctx) })}</P>
        {o.rejectReason ? <P>{fill(M.order.reason, { reason: o.rejectReason })}</P> : null}
        <H2>{M.order_failed.money_heading}</H2>
        <P>{await failedMoneyText(ctx, o)}</P>
        <H2>{M.order.items_heading}</H2>
        <Title o={o} />
        <Facts rows={itemRows(o)} />
        <Facts rows={paymentRows(o)} />
        <ReceiptNote receipts={await receiptsOf(ctx.db, o.id)} kind="sell" />
        <OrderLink o={o} ctx={ctx} />
      </Layout>
    ),
  }
}

export const orderRefunded: Template<'order_refunded'> = async (data, ctx) => {
  const o = await loadOrderForMail(ctx.db, data.orderId)
  if (!o?.email) return null
  const amount = formatMoneyIn(data.amount ?? o.totalToPay, data.currency)
  const reason = data.reason ?? o.rejectReason
  // the method of the payment this refund gives back (a double payment's may not be the order's)
  const refunded = data.paymentId ? await paymentMethodTitle(ctx.db, data.paymentId) : o.payment?.method
  const method = refunded ? ` (${refunded})` : ''
  return {
    orderId: o.id,
    subject: fill(M.order_refunded.subject, { number: orderNumber(o.number) }),
    body: (
      <Layout
        preview={fill(M.order_refunded.preview, { amount })}
        heading={M.order_refunded.heading}
        publicUrl={ctx.config.publicUrl}
      >
        <P>
          {fill(data.refusedPayment ? M.order_refunded.intro_refused : M.order_refunded.intro, {
            placed: placed(o, ctx),
          })}
        </P>
        {reason ? <P>{fill(M.order.reason, { reason })}</P> : null}
        <Facts rows={[[M.order_refunded.amount, amount]]} />
        <P>
          {data.destination === 'balance'
            ? M.order_refunded.to_balance
            : fill(data.destination === 'person' ? M.order_refunded.to_person : M.order_refunded.to_payment, {
                method,
              })}
        </P>
        <H2>{M.order.items_heading}</H2>
        <Title o={o} />
        <Facts rows={itemRows(o)} />
        <ReceiptNote receipts={await receiptsOf(ctx.db, o.id)} kind="sell_refund" />
        <OrderLink o={o} ctx={ctx} />
      </Layout>
    ),
  }
}
