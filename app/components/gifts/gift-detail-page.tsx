import type { MetaFunction } from '@remix-run/node'
import { Link, useLoaderData, useLocation } from '@remix-run/react'
import { ForgetDeviceForm } from '#app/components/forget-device'
import { ProductJsonLd } from '#app/components/json-ld'
import { useT } from '#app/i18n/i18n-context'
import { pageMeta } from '#app/lib/seo'
import { GiftBadges } from './gift-badges'
import type { loadGiftDetail } from './gift-loaders.server'
import { GiftPrice } from './gift-price'
import { GiftPurchaseForm } from './gift-purchase-form'

export const giftDetailMeta: MetaFunction<typeof loadGiftDetail> = (args) =>
  args.data
    ? pageMeta(args, {
        title: args.data.meta.title,
        description: args.data.meta.description,
        image: args.data.gift.logo,
        type: 'product',
      })
    : []

/** `/gifts/detalis/{id}`: the gift and its purchase form. */
export function GiftDetailPage() {
  const t = useT()
  const { gift, descriptionHtml, idempotencyKey, rememberedEmail, rememberedHere } =
    useLoaderData<typeof loadGiftDetail>()
  const location = useLocation()
  return (
    <article className="gift-detail">
      <ProductJsonLd
        name={gift.title}
        description={gift.description}
        image={gift.logo}
        sku={gift.id}
        offers={{ price: gift.currentPriceWire, inStock: gift.inStock }}
      />
      <p className="gift-detail__back">
        <Link to="/gifts">{t('gifts.detail.back')}</Link>
      </p>
      <div className="gift-detail__layout">
        <img className="gift-detail__logo" src={gift.logo} alt={gift.title} width={400} height={320} />
        <div className="gift-detail__info">
          <h1>{gift.title}</h1>
          <p className="gift-detail__type">{gift.type}</p>
          <GiftBadges gift={gift} />
          <GiftPrice gift={gift} large />
          <GiftPurchaseForm gift={gift} idempotencyKey={idempotencyKey} rememberedEmail={rememberedEmail} />
          {rememberedHere ? (
            <ForgetDeviceForm
              returnTo={`${location.pathname}${location.search}`}
              note={rememberedEmail ? t('account.device_data.gift_note') : undefined}
            />
          ) : null}
        </div>
      </div>
      <section className="gift-detail__about" aria-labelledby="gift-about-heading">
        <h2 id="gift-about-heading">{t('gifts.detail.description')}</h2>
        <div
          className="gift-detail__text"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized by sanitizeHtml in the loader
          dangerouslySetInnerHTML={{ __html: descriptionHtml }}
        />
        {gift.tags.length > 0 ? (
          <ul className="gift-tags" aria-label={t('gifts.detail.tags')}>
            {gift.tags.map((tag) => (
              <li key={tag}>
                <Link to={`/gifts?search=${encodeURIComponent(tag)}`} className="gift-tag">
                  #{tag}
                </Link>
              </li>
            ))}
          </ul>
        ) : null}
      </section>
    </article>
  )
}
