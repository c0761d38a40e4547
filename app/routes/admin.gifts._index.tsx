// /admin/gifts: every gift (hidden ones too) and a form to add one.
import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { GIFT_SPEC, GiftForm } from '#app/components/admin/catalogue-forms'
import { useT } from '#app/i18n/i18n-context'
import { adminT, badIntent, done, formFailure, ownerApi, read, readForm } from '#app/lib/admin/admin.server'
import { formBody } from '#app/lib/admin/form-body'
import { adminMeta } from '#app/lib/admin/meta'
import { formatWireMoney } from '#app/lib/money'

export const meta = adminMeta('gifts.title')

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api } = await ownerApi(request, context)
  const gifts = await read(request, api, api.client.GET('/api/admin/gifts/'))
  // money is written on the server: the formatter stays out of the back-office bundle
  const priced = gifts.map((g) => ({ ...g, price_label: formatWireMoney(g.discount_price ?? g.price) }))
  return data({ gifts: priced }, { headers: api.headers })
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { api } = await ownerApi(request, context)
  const posted = await readForm(request)
  if (posted.intent !== 'create') badIntent()
  const {
    data: gift,
    error,
    response,
  } = await api.client.POST('/api/admin/gifts/', {
    body: formBody(posted.form, GIFT_SPEC),
  })
  if (!gift) return formFailure(posted.key, posted.form, error, response, api)
  return done(request, api, adminT('admin.gifts.added'), `/admin/gifts/${gift.id}`)
}

export default function AdminGifts() {
  const t = useT()
  const { gifts } = useLoaderData<typeof loader>()
  return (
    <section aria-labelledby="admin-h1">
      <h1 id="admin-h1">{t('admin.gifts.title')}</h1>
      <ul className="admin-cards">
        {gifts.map((g) => (
          <li key={g.id} className="card admin-row">
            <Link to={`/admin/gifts/${g.id}`}>{g.title}</Link>
            <span className="field__hint">
              {g.price_label} · {g.region}
              {g.is_active ? '' : ` · ${t('admin.gifts.inactive')}`}
            </span>
          </li>
        ))}
      </ul>
      <section className="card admin-section" aria-labelledby="gift-add">
        <h2 id="gift-add">{t('admin.gifts.add')}</h2>
        <GiftForm formKey="create" key={gifts.length} />
      </section>
    </section>
  )
}
