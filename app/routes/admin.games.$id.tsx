// /admin/games/:id — a game's texts and switches, its products and its FAQ.
import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { AdminForm, Submit, useFailedForm } from '#app/components/admin/admin-form'
import { LogoUpload } from '#app/components/admin/logo-upload'
import {
  FAQ_SPEC,
  FaqForm,
  GAME_SPEC,
  GameForm,
  PRODUCT_SPEC,
  ProductForm,
} from '#app/components/admin/catalogue-forms'
import { useT } from '#app/i18n/i18n-context'
import { adminT, badIntent, idFrom, ownerApi, read, readForm, settle } from '#app/lib/admin/admin.server'
import { formBody } from '#app/lib/admin/form-body'
import { uploadLogo } from '#app/lib/admin/logo.server'
import { adminMeta } from '#app/lib/admin/meta'
import { invalidRoute, pageNotFound } from '#app/lib/http-errors.server'
import { formatWireMoney } from '#app/lib/money'

export const meta = adminMeta('games.title')

function gameId(request: Request, raw: string | undefined): number {
  if (!raw || !/^[1-9]\d{0,8}$/.test(raw)) invalidRoute(request)
  return Number(raw)
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api } = await ownerApi(request, context)
  const id = gameId(request, params.id)
  const path = { params: { path: { id } } }
  const [games, products, faq] = await Promise.all([
    read(request, api, api.client.GET('/api/admin/games/')),
    read(request, api, api.client.GET('/api/admin/games/{id}/products/', path)),
    read(request, api, api.client.GET('/api/admin/games/{id}/faq/', path)),
  ])
  const game = games.find((g) => g.id === id)
  if (!game) pageNotFound(request)
  // money is written on the server: the formatter stays out of the back-office bundle
  const priced = products.map((p) => ({ ...p, price_label: formatWireMoney(p.discount_price ?? p.price) }))
  return data({ game, products: priced, faq }, { headers: api.headers })
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { api } = await ownerApi(request, context)
  const id = gameId(request, params.id)
  const posted = await readForm(request)
  const { form, intent } = posted
  const c = api.client
  const byId = () => ({ params: { path: { id: idFrom(form.get('id')) } } })
  const saved = (k: string) => adminT(`admin.${k}`)
  switch (intent) {
    case 'game':
      return settle(
        request,
        api,
        posted,
        c.PATCH('/api/admin/games/{id}/', { params: { path: { id } }, body: formBody(form, GAME_SPEC) }),
        saved('games.saved'),
      )
    case 'logo':
      return uploadLogo(request, api, posted, 'games', id)
    case 'product_create':
      return settle(
        request,
        api,
        posted,
        c.POST('/api/admin/games/{id}/products/', {
          params: { path: { id } },
          body: formBody(form, PRODUCT_SPEC),
        }),
        saved('products.added'),
      )
    case 'product':
      return settle(
        request,
        api,
        posted,
        c.PATCH('/api/admin/products/{id}/', { ...byId(), body: formBody(form, PRODUCT_SPEC) }),
        saved('products.saved'),
      )
    case 'faq_create':
      return settle(
        request,
        api,
        posted,
        c.POST('/api/admin/games/{id}/faq/', { params: { path: { id } }, body: formBody(form, FAQ_SPEC) }),
        saved('faq.added'),
      )
    case 'faq':
      return settle(
        request,
        api,
        posted,
        c.PATCH('/api/admin/faq/{id}/', { ...byId(), body: formBody(form, FAQ_SPEC) }),
        saved('faq.saved'),
      )
    case 'faq_delete':
      return settle(request, api, posted, c.DELETE('/api/admin/faq/{id}/', byId()), saved('faq.deleted'))
    default:
      badIntent()
  }
}

export default function AdminGame() {
  const t = useT()
  const { game, products, faq } = useLoaderData<typeof loader>()
  const failed = useFailedForm()
  return (
    <section aria-labelledby="admin-h1">
      <p>
        <Link className="admin-back" to="/admin/games">
          ← {t('admin.games.back')}
        </Link>
      </p>
      <h1 id="admin-h1">{game.title}</h1>
      <p className="field__hint">
        {t(`admin.games.kinds.${game.kind}`)} ·{' '}
        <Link to={`/products/${game.id}`}>{t('admin.games.open_page')}</Link> · {t('admin.games.cache_hint')}
      </p>
      <GameVisibility
        hidden={!game.is_active}
        nothingToBuy={sellsProducts(game.kind) && !products.some((p) => p.is_active)}
      />
      <section className="card admin-section" aria-labelledby="game-edit">
        <h2 id="game-edit">{t('admin.common.edit')}</h2>
        <GameForm game={game} />
      </section>

      <LogoUpload logo={game.logo} title={game.title} />

      <section className="admin-section" aria-labelledby="game-products">
        <h2 id="game-products">{t('admin.games.products')}</h2>
        {products.length === 0 ? <p>{t('admin.games.no_products')}</p> : null}
        <ul className="admin-cards">
          {products.map((p) => (
            <li key={p.id} className="card">
              <details open={failed === `product-${p.id}` || undefined}>
                <summary>
                  <strong>{p.title}</strong> · {p.price_label}
                  {p.is_active ? '' : ` · ${t('admin.products.inactive')}`}
                </summary>
                <ProductForm product={p} kind={game.kind} formKey={`product-${p.id}`} />
                {game.kind === 'PUBGGame' ? (
                  <Link to={`/admin/stock/products/${p.id}`}>{t('admin.products.stock')}</Link>
                ) : null}
              </details>
            </li>
          ))}
        </ul>
        <div className="card admin-section">
          <h3>{t('admin.products.add')}</h3>
          <ProductForm kind={game.kind} formKey="product-new" key={products.length} />
        </div>
      </section>

      <section className="admin-section" aria-labelledby="game-faq">
        <h2 id="game-faq">{t('admin.faq.title')}</h2>
        {faq.length === 0 ? <p>{t('admin.faq.none')}</p> : null}
        <ul className="admin-cards">
          {faq.map((f) => (
            <li key={f.id} className="card">
              <details open={failed === `faq-${f.id}` || failed === `faq-del-${f.id}` || undefined}>
                <summary>{f.text}</summary>
                <FaqForm item={f} formKey={`faq-${f.id}`} />
                <AdminForm
                  formKey={`faq-del-${f.id}`}
                  intent="faq_delete"
                  label={`${t('admin.faq.delete')}: ${f.text}`}
                  hidden={{ id: f.id }}
                >
                  <Submit danger>{t('admin.faq.delete')}</Submit>
                </AdminForm>
              </details>
            </li>
          ))}
        </ul>
        <div className="card admin-section">
          <h3>{t('admin.faq.add')}</h3>
          <FaqForm formKey="faq-new" key={faq.length} />
        </div>
      </section>
    </section>
  )
}

/** Steam and Standoff orders name an amount or a listing; the other kinds sell the game's products. */
const sellsProducts = (kind: string) => kind === 'PUBGGame' || kind === 'SupplyGame'

/** Why buyers do not see the game, or cannot buy anything on it, said where the owner edits it. */
function GameVisibility({ hidden, nothingToBuy }: { hidden: boolean; nothingToBuy: boolean }) {
  const t = useT()
  if (!hidden && !nothingToBuy) return null
  return (
    <p className="admin-warning" role="status" data-testid="game-visibility">
      {hidden ? t('admin.games.hidden_note') : t('admin.games.nothing_to_buy')}
    </p>
  )
}
