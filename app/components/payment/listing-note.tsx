// The Standoff listing note of the pay page (deferred: only Standoff orders show it).
import { Form } from '@remix-run/react'
import { useT } from '#app/i18n/i18n-context'
import { formatWireDecimal } from '#app/lib/money'
import type { PayPageData } from './types'

/**
 * Standoff: the skin and the exact price to list it at (fixed by the shop for this order), and
 * after paying the «Я выставил скин» button (a post form: works without JavaScript).
 */
export function ListingNote({ page }: { page: PayPageData }) {
  const t = useT()
  const { order, skin } = page
  if (!order.listing || !skin || order.status === 'done' || order.status === 'failed') return null
  return (
    <section className="card pay-listing" aria-labelledby="pay-listing-heading">
      <h2 id="pay-listing-heading">{t('payment.delivery.listing_heading')}</h2>
      {skin.picture ? (
        <img src={skin.picture} alt="" width={96} height={64} className="pay-listing__skin" />
      ) : null}
      <p data-testid="listing-price">
        {t('payment.delivery.listing', { skin: skin.name, price: formatWireDecimal(order.listing.price) })}
      </p>
      <p className="pay-muted">{t('payment.delivery.listing_unique')}</p>
      {order.listing.listed ? (
        <p role="status">{t('payment.delivery.listed')}</p>
      ) : order.isPaymentActive ? null : (
        <Form method="post">
          <input type="hidden" name="intent" value="skin_listed" />
          <button type="submit" className="button">
            {t('payment.delivery.listed_button')}
          </button>
        </Form>
      )}
    </section>
  )
}
