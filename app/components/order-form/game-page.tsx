import type { MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useLocation } from '@remix-run/react'
import { metaT } from '#app/components/catalogue/meta-t'
import { ProductJsonLd } from '#app/components/json-ld'
import { useT } from '#app/i18n/i18n-context'
import { toMoney } from '#app/lib/money'
import { pageMeta } from '#app/lib/seo'
import { DeferredOrderForm } from './deferred-order-form'
import { TrustLines } from './trust-lines'
import type { ActionResult, FaqItem, productLoader } from './product-page.server'

export const gameMeta: MetaFunction<typeof productLoader> = (args) => {
  const { data, matches } = args
  if (!data) return []
  const t = metaT(matches)
  const title = data.game.detailTitle || data.game.title
  const description = data.game.detailDescription.slice(0, 160) || t('products.meta_description', { title })
  return pageMeta(args, {
    title: t('products.meta_title', { title }),
    description,
    image: data.game.logo,
    type: 'product',
  })
}

function Faq({ items }: { items: FaqItem[] }) {
  const t = useT()
  if (items.length === 0) return null
  return (
    <section className="faq" aria-labelledby="faq-heading">
      <h2 id="faq-heading">{t('products.faq_heading')}</h2>
      {items.map((f) => (
        <details key={f.id} className="faq__item">
          <summary>{f.question}</summary>
          <p>{f.answer}</p>
        </details>
      ))}
    </section>
  )
}

/** Guests on a game that needs an account: a way to sign in instead of the form. */
function SignInPrompt({ title }: { title: string }) {
  const t = useT()
  const location = useLocation()
  const params = new URLSearchParams(location.search)
  params.set('auth', '1')
  return (
    <div className="card sign-in-prompt">
      <p>{t('products.sign_in_required', { title })}</p>
      <Link className="button button--primary" to={`${location.pathname}?${params}`} preventScrollReset>
        {t('products.sign_in')}
      </Link>
    </div>
  )
}

/**
 * A guest's email and player ids came from this device's memory (issue 50): one plain post forgets
 * them (app/routes/buyer.forget.tsx), and the page comes back with empty fields.
 */
function ForgetMe() {
  const t = useT()
  const location = useLocation()
  return (
    <Form
      method="post"
      action="/buyer/forget"
      className="forget-me"
      aria-label={t('products.remember.form_label')}
    >
      <input type="hidden" name="returnTo" value={`${location.pathname}${location.search}`} />
      <p className="forget-me__note">{t('products.remember.note')}</p>
      <button type="submit" className="button">
        {t('products.remember.forget')}
      </button>
    </Form>
  )
}

export function GamePage() {
  const loaderData = useLoaderData<typeof productLoader>()
  const actionData = useActionData<ActionResult>()
  const t = useT()
  const { game, descriptionHtml, faq, signedIn, unavailable, repeating, repeatMissing } = loaderData
  return (
    <article className="game-page">
      <ProductJsonLd
        name={game.detailTitle || game.title}
        description={game.detailDescription}
        image={game.logo}
        sku={game.id}
        offers={game.products.map((p) => ({
          name: p.title,
          price: toMoney(p.unitPrice),
          inStock: game.isActive && p.isActive && p.inStock,
        }))}
      />
      <header className="game-page__header">
        <img className="game-page__logo" src={game.logo} alt="" width={96} height={96} />
        <div>
          <h1>{game.detailTitle || game.title}</h1>
          {game.deliveryMinutes !== null ? (
            <p className="game-page__delivery" data-testid="game-delivery">
              {t('manual_delivery.game_promise', { minutes: game.deliveryMinutes })}
            </p>
          ) : null}
        </div>
      </header>
      <TrustLines deliveryMinutes={game.deliveryMinutes} />
      {repeating ? (
        <div className="card repeat-note" role="status">
          <h2>{t('products.repeat_heading')}</h2>
          <p>{t('products.repeat_hint')}</p>
        </div>
      ) : repeatMissing ? (
        <p className="card repeat-note" role="status">
          {t('products.repeat_missing')}
        </p>
      ) : null}
      {unavailable ? (
        <p className="card unavailable" role="status">
          {t('products.errors.unavailable')}
        </p>
      ) : game.isAuthRequired && !signedIn ? (
        <SignInPrompt title={game.title} />
      ) : (
        <>
          <DeferredOrderForm
            key={`${game.id}:${loaderData.rememberedHere}`}
            loaderData={loaderData}
            actionData={actionData}
          />
          {loaderData.rememberedHere ? <ForgetMe /> : null}
        </>
      )}
      {/* the description follows the form: the packs come first on a phone's first screen (issue 50) */}
      {descriptionHtml ? (
        <div
          className="game-page__description"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized by sanitizeHtml in the loader
          dangerouslySetInnerHTML={{ __html: descriptionHtml }}
        />
      ) : null}
      <Faq items={faq} />
    </article>
  )
}
