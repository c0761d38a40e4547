// /admin/gifts/:id — one gift's texts, prices and switches.
import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { GIFT_SPEC, GiftForm } from '#app/components/admin/catalogue-forms'
import { LogoUpload } from '#app/components/admin/logo-upload'
import { useT } from '#app/i18n/i18n-context'
import { adminT, badIntent, ownerApi, read, readForm, settle } from '#app/lib/admin/admin.server'
import { formBody } from '#app/lib/admin/form-body'
import { uploadLogo } from '#app/lib/admin/logo.server'
import { adminMeta } from '#app/lib/admin/meta'
import { invalidRoute, pageNotFound } from '#app/lib/http-errors.server'

export const meta = adminMeta('gifts.title')

function giftId(request: Request, raw: string | undefined): number {
  if (!raw || !/^[1-9]\d{0,8}$/.test(raw)) invalidRoute(request)
  return Number(raw)
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api } = await ownerApi(request, context)
  const id = giftId(request, params.id)
  const gift = (await read(request, api, api.client.GET('/api/admin/gifts/'))).find((g) => g.id === id)
  if (!gift) pageNotFound(request)
  return data({ gift }, { headers: api.headers })
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { api } = await ownerApi(request, context)
  const id = giftId(request, params.id)
  const posted = await readForm(request)
  if (posted.intent === 'logo') return uploadLogo(request, api, posted, 'gifts', id)
  if (posted.intent !== 'gift') badIntent()
  const call = api.client.PATCH('/api/admin/gifts/{id}/', {
    params: { path: { id } },
    body: formBody(posted.form, GIFT_SPEC),
  })
  return settle(request, api, posted, call, adminT('admin.gifts.saved'))
}

export default function AdminGift() {
  const t = useT()
  const { gift } = useLoaderData<typeof loader>()
  return (
    <section aria-labelledby="admin-h1">
      <p>
        <Link className="admin-back" to="/admin/gifts">
          ← {t('admin.gifts.back')}
        </Link>
      </p>
      <h1 id="admin-h1">{gift.title}</h1>
      <p className="field__hint">
        <Link to={`/gifts/detalis/${gift.id}`}>{t('admin.games.open_page')}</Link> ·{' '}
        <Link to={`/admin/stock/gifts/${gift.id}`}>{t('admin.gifts.stock')}</Link> ·{' '}
        {t('admin.games.cache_hint')}
      </p>
      <section className="card admin-section" aria-labelledby="gift-edit">
        <h2 id="gift-edit">{t('admin.common.edit')}</h2>
        <GiftForm gift={gift} formKey="gift" />
      </section>
      <LogoUpload logo={gift.logo} title={gift.title} />
    </section>
  )
}
