// Every template by name, and the one render: HTML from React Email, plain text from that HTML.
import { render, toPlainText } from '@react-email/render'
import type { MailDataMap, MailTemplate } from './outbox'
import { confirmEmail, orderLookup, passwordChanged, passwordReset, socialBound } from './templates/account'
import { staffAlertsDigest } from './templates/alerts'
import { deliveryEscalated, deliveryOverdue, deliveryRefundWarning, orderPaid } from './templates/delivery'
import { orderHeld, reviewOverdue } from './templates/review'
import { orderDone, orderFailed, orderRefunded } from './templates/order'
import { dataRequestAccepted, dataRequestConfirm } from './templates/personal-data'
import type { RenderContext, Template } from './templates/types'
import { SellerLineContext, ShopNameContext, TaglineContext } from './templates/layout'
import { fill, M } from './messages'
import { getSellerSettings, sellerName } from '../receipts/settings'
import { getShopSettings } from '../shop/settings'
import { isSoleTraderNumber } from '../../../../shared/requisites'

export const TEMPLATES: { [T in MailTemplate]: Template<T> } = {
  order_paid: orderPaid,
  delivery_overdue: deliveryOverdue,
  delivery_refund_warning: deliveryRefundWarning,
  delivery_escalated: deliveryEscalated,
  order_held: orderHeld,
  review_overdue: reviewOverdue,
  order_done: orderDone,
  order_failed: orderFailed,
  order_refunded: orderRefunded,
  order_lookup: orderLookup,
  confirm_email: confirmEmail,
  password_reset: passwordReset,
  password_changed: passwordChanged,
  social_bound: socialBound,
  staff_alerts: staffAlertsDigest,
  data_request_confirm: dataRequestConfirm,
  data_request_accepted: dataRequestAccepted,
}

export interface RenderedMail {
  subject: string
  html: string
  text: string
  orderId?: string
}

export function isMailTemplate(name: unknown): name is MailTemplate {
  return typeof name === 'string' && Object.hasOwn(TEMPLATES, name)
}

/** The mail as it would be sent now, or null when its template has nothing to send. */
export async function renderMail<T extends MailTemplate>(
  template: T,
  data: MailDataMap[T],
  ctx: RenderContext,
): Promise<RenderedMail | null> {
  // the owner's shop name (issue 37) in the header, footer and texts of every mail
  // and its time zone (decision 136) for every time the mail states
  // and its tagline (issue 47) under the name
  const settings =
    ctx.shop && ctx.timeZone && ctx.tagline !== undefined
      ? null
      : await getShopSettings(ctx.db, { demo: ctx.demo ?? true, shopTimeZone: ctx.config.shopTimeZone })
  const shop = ctx.shop ?? settings?.name ?? M.shop
  const timeZone = ctx.timeZone ?? settings?.timeZone
  const tagline = (ctx.tagline ?? settings?.tagline) || M.layout.tagline
  const content = await (TEMPLATES[template] as Template<T>)(data, { ...ctx, shop, timeZone })
  if (!content) return null
  const seller = await getSellerSettings(ctx.db)
  const line = seller.companyName
    ? fill(isSoleTraderNumber(seller.ogrn) ? M.layout.seller_ip : M.layout.seller, {
        name: sellerName(seller),
        inn: seller.inn,
        ogrn: seller.ogrn,
      })
    : null
  const html = await render(
    <ShopNameContext.Provider value={shop}>
      <TaglineContext.Provider value={tagline}>
        <SellerLineContext.Provider value={line}>{content.body}</SellerLineContext.Provider>
      </TaglineContext.Provider>
    </ShopNameContext.Provider>,
  )
  const text = toPlainText(html, {
    selectors: [
      // the button becomes «label URL»; the hint under it is for HTML readers whose button failed
      { selector: 'a.button', format: 'anchor', options: { linkBrackets: false } },
      { selector: 'p.link-hint', format: 'skip' },
      { selector: 'img', format: 'skip' },
      { selector: 'h1', options: { uppercase: false } },
      { selector: 'h2', options: { uppercase: false } },
    ],
  })
  return { subject: content.subject, html, text, orderId: content.orderId }
}
