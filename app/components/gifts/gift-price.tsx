import { useT } from '#app/i18n/i18n-context'
import type { Gift } from '#app/lib/view-models/gift'

/** The current price, and the list price struck through when a discount applies. */
export function GiftPrice({ gift, large = false }: { gift: Gift; large?: boolean }) {
  const t = useT()
  return (
    <p className={large ? 'gift-price gift-price--large' : 'gift-price'}>
      <span className="visually-hidden">{t('gifts.price.label')} </span>
      <strong>{gift.currentPriceText}</strong>
      {gift.discountPrice !== null ? (
        <>
          <span className="visually-hidden"> {t('gifts.price.instead_of')} </span>
          <s className="price-old">{gift.priceText}</s>
        </>
      ) : null}
    </p>
  )
}
