// /admin/kinds (owner): the settings of the kinds that need them, so none needs SQL — Standoff 2
// gold (the skin buyers list, the market fee, the surplus, the refund need) and Steam top-ups
// (commission, the account's currency, limits). Steam games are sold once its settings are saved.
import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { AdminForm, Check, Field, Submit } from '#app/components/admin/admin-form'
import { useT } from '#app/i18n/i18n-context'
import { adminT, badIntent, ownerApi, read, readForm, settle } from '#app/lib/admin/admin.server'
import { formBody, formSpec, fromScaled } from '#app/lib/admin/form-body'
import { adminMeta } from '#app/lib/admin/meta'

export const meta = adminMeta('kinds.title')

const STANDOFF_SPEC = formSpec('put', '/api/admin/settings/standoff/', {
  skin_name: 'text',
  skin_picture: 'text',
  market_fee_bp: 'percentBp',
  is_surplus_enabled: 'bool',
  need_refund: 'bool',
})
const STEAM_SPEC = formSpec('put', '/api/admin/settings/steam/', {
  commission_bp: 'percentBp',
  currency: 'text',
  min_amount: 'money',
  max_amount: 'money',
})
const CURRENCIES = ['RUB', 'KZT', 'USD', 'EUR', 'UAH']

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api } = await ownerApi(request, context)
  const [standoff, steam] = await Promise.all([
    read(request, api, api.client.GET('/api/admin/settings/standoff/')),
    read(request, api, api.client.GET('/api/admin/settings/steam/')),
  ])
  return data({ standoff, steam }, { headers: api.headers })
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { api } = await ownerApi(request, context)
  const posted = await readForm(request)
  const { form, intent } = posted
  switch (intent) {
    case 'standoff':
      return settle(
        request,
        api,
        posted,
        api.client.PUT('/api/admin/settings/standoff/', { body: formBody(form, STANDOFF_SPEC) }),
        adminT('admin.kinds.standoff_saved'),
      )
    case 'steam':
      return settle(
        request,
        api,
        posted,
        api.client.PUT('/api/admin/settings/steam/', { body: formBody(form, STEAM_SPEC) }),
        adminT('admin.kinds.steam_saved'),
      )
    default:
      badIntent()
  }
}

export default function AdminKinds() {
  const t = useT()
  const { standoff, steam } = useLoaderData<typeof loader>()
  return (
    <section aria-labelledby="admin-h1">
      <h1 id="admin-h1">{t('admin.kinds.title')}</h1>
      <p>{t('admin.kinds.intro')}</p>
      <section className="admin-section card" aria-labelledby="kinds-standoff">
        <h2 id="kinds-standoff">{t('admin.kinds.standoff')}</h2>
        {standoff.configured ? null : <p className="form-error">{t('admin.kinds.standoff_unsaved')}</p>}
        {standoff.skin_picture ? (
          <img src={standoff.skin_picture} alt={standoff.skin_name} width={96} height={96} loading="lazy" />
        ) : null}
        <AdminForm formKey="standoff" intent="standoff" label={t('admin.kinds.standoff')}>
          <Field
            name="skin_name"
            label={t('admin.kinds.skin_name')}
            defaultValue={standoff.skin_name}
            required
          />
          <Field
            name="skin_picture"
            label={t('admin.kinds.skin_picture')}
            hint={t('admin.kinds.skin_picture_hint')}
            defaultValue={standoff.skin_picture}
            required
          />
          <Field
            name="market_fee_bp"
            type="number"
            inputMode="decimal"
            label={t('admin.kinds.market_fee')}
            hint={t('admin.kinds.market_fee_hint')}
            defaultValue={fromScaled(standoff.market_fee_bp, 2)}
          />
          <Check
            name="is_surplus_enabled"
            label={t('admin.kinds.surplus')}
            defaultChecked={standoff.is_surplus_enabled}
          />
          <Check
            name="need_refund"
            label={t('admin.kinds.need_refund')}
            defaultChecked={standoff.need_refund}
          />
          <Submit>{t('admin.common.save')}</Submit>
        </AdminForm>
      </section>
      <section className="admin-section card" aria-labelledby="kinds-steam">
        <h2 id="kinds-steam">{t('admin.kinds.steam')}</h2>
        {steam.configured ? null : <p className="form-error">{t('admin.kinds.steam_unsaved')}</p>}
        <AdminForm formKey="steam" intent="steam" label={t('admin.kinds.steam')}>
          <Field
            name="commission_bp"
            type="number"
            inputMode="decimal"
            label={t('admin.kinds.commission')}
            hint={t('admin.kinds.commission_hint')}
            defaultValue={fromScaled(steam.commission_bp, 2)}
          />
          <Field
            name="currency"
            type="select"
            label={t('admin.kinds.currency')}
            hint={t('admin.kinds.currency_hint')}
            defaultValue={steam.currency}
            options={CURRENCIES.map((c) => ({ value: c, label: c }))}
          />
          <Field
            name="min_amount"
            type="number"
            inputMode="decimal"
            label={t('admin.kinds.min_amount')}
            defaultValue={steam.min_amount}
          />
          <Field
            name="max_amount"
            type="number"
            inputMode="decimal"
            label={t('admin.kinds.max_amount')}
            defaultValue={steam.max_amount}
          />
          <Submit>{t('admin.common.save')}</Submit>
        </AdminForm>
      </section>
    </section>
  )
}
