// /admin/seller, «Реквизиты и чеки» (owner only, issue 33): the seller's requisites (the footer,
// /info/contacts and every mail show them), the receipt settings, and the receipts the fiscal
// service refused, each with «Отправить ещё раз». Plain forms: works without JavaScript.
import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { AdminForm, Check, Field, Submit } from '#app/components/admin/admin-form'
import { useT } from '#app/i18n/i18n-context'
import { adminT, badIntent, idFrom, ownerApi, read, readForm, settle } from '#app/lib/admin/admin.server'
import { adminMeta } from '#app/lib/admin/meta'
import { formatWireMoney } from '#app/lib/money'
import { useWhen } from '#app/lib/shop-time'
import type { components } from '#openapi/schema'
import { formatOrderNumber } from '../../shared/order-number'

export const meta = adminMeta('seller.title')

type Seller = components['schemas']['AdminSeller']
type Rules = Seller['item_rules']

const TAX_SYSTEMS = ['osn', 'usn_income', 'usn_income_outcome', 'esn', 'patent'] as const
const TRANSPORTS = ['sandbox', 'atol', 'with_payment'] as const
const KINDS = ['codes', 'topup', 'gift', 'steam_topup', 'commission'] as const
const VATS = [
  'none',
  'vat0',
  'vat5',
  'vat7',
  'vat10',
  'vat20',
  'vat22',
  'vat105',
  'vat107',
  'vat110',
  'vat120',
  'vat122',
] as const
const OBJECTS = ['commodity', 'service', 'payment', 'agent_commission', 'another'] as const
const TEXTS = ['legal_form', 'company_name', 'inn', 'ogrn', 'address', 'email', 'phone', 'extra'] as const

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api } = await ownerApi(request, context)
  const [seller, failed] = await Promise.all([
    read(request, api, api.client.GET('/api/admin/seller/')),
    read(request, api, api.client.GET('/api/admin/receipts/failed/')),
  ])
  return data({ seller, failed }, { headers: api.headers })
}

/** The form → the API's body; the values are checked by the API (Russian field errors). */
function sellerBody(form: FormData): Seller {
  const text = (name: string) => String(form.get(name) ?? '').trim()
  const rules = Object.fromEntries(
    KINDS.map((k) => [k, { vat: text(`vat_${k}`), payment_object: text(`object_${k}`) }]),
  ) as Rules
  return {
    ...(Object.fromEntries(TEXTS.map((n) => [n, text(n)])) as Pick<Seller, (typeof TEXTS)[number]>),
    tax_system: text('tax_system') as Seller['tax_system'],
    receipts_enabled: form.get('receipts_enabled') === 'on',
    receipt_transport: text('receipt_transport') as Seller['receipt_transport'],
    item_rules: rules,
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { api } = await ownerApi(request, context)
  const posted = await readForm(request)
  const c = api.client
  switch (posted.intent) {
    case 'seller':
      return settle(
        request,
        api,
        posted,
        c.PUT('/api/admin/seller/', { body: sellerBody(posted.form) }),
        adminT('admin.seller.saved'),
      )
    case 'resend':
      return settle(
        request,
        api,
        posted,
        c.POST('/api/admin/receipts/{id}/resend/', {
          params: { path: { id: idFrom(posted.form.get('id')) } },
        }),
        adminT('admin.seller.resent'),
      )
    default:
      badIntent()
  }
}

export default function AdminSeller() {
  const t = useT()
  const { seller: s, failed } = useLoaderData<typeof loader>()
  const when = useWhen()
  const options = (keys: readonly string[], prefix: string) =>
    keys.map((k) => ({ value: k, label: t(`admin.seller.${prefix}.${k}`) }))
  return (
    <section className="admin-page" aria-labelledby="seller-heading">
      <h1 id="seller-heading">{t('admin.seller.title')}</h1>
      <p className="field__hint">{t('admin.seller.intro')}</p>

      <section className="card admin-section" aria-labelledby="failed-heading">
        <h2 id="failed-heading">{t('admin.seller.failed_heading')}</h2>
        {failed.length === 0 ? <p>{t('admin.seller.failed_none')}</p> : null}
        <ul className="admin-cards">
          {failed.map((r) => (
            <li key={r.id} className="card" data-testid={`failed-receipt-${r.id}`}>
              <p>
                {t('admin.seller.failed_line', {
                  order: r.order_number ? formatOrderNumber(r.order_number) : r.order_id,
                  kind: t(`admin.seller.receipt_kinds.${r.kind}`),
                  total: formatWireMoney(r.total),
                  created: when(r.created),
                })}
              </p>
              {r.reason ? <p className="form-error">{r.reason}</p> : null}
              <AdminForm
                formKey={`resend-${r.id}`}
                intent="resend"
                className="admin-inline"
                label={t('admin.seller.resend')}
                hidden={{ id: r.id }}
              >
                <Submit>{t('admin.seller.resend')}</Submit>
              </AdminForm>
            </li>
          ))}
        </ul>
      </section>

      <AdminForm formKey="seller" intent="seller" label={t('admin.seller.title')}>
        <fieldset className="card admin-section">
          <legend>{t('admin.seller.requisites')}</legend>
          <Field name="legal_form" label={t('admin.seller.legal_form')} defaultValue={s.legal_form} />
          <Field name="company_name" label={t('admin.seller.company_name')} defaultValue={s.company_name} />
          <Field
            name="inn"
            inputMode="numeric"
            label={t('admin.seller.inn')}
            hint={t('admin.seller.inn_hint')}
            defaultValue={s.inn}
          />
          <Field
            name="ogrn"
            inputMode="numeric"
            label={t('admin.seller.ogrn')}
            hint={t('admin.seller.ogrn_hint')}
            defaultValue={s.ogrn}
          />
          <Field
            name="address"
            type="textarea"
            rows={2}
            label={t('admin.seller.address')}
            defaultValue={s.address}
          />
          <Field name="email" type="email" label={t('admin.seller.email')} defaultValue={s.email} />
          <Field name="phone" label={t('admin.seller.phone')} defaultValue={s.phone} />
          <Field
            name="extra"
            type="textarea"
            rows={2}
            label={t('admin.seller.extra')}
            defaultValue={s.extra}
          />
        </fieldset>
        <fieldset className="card admin-section">
          <legend>{t('admin.seller.receipts')}</legend>
          <Field
            name="tax_system"
            type="select"
            label={t('admin.seller.tax_system')}
            options={options(TAX_SYSTEMS, 'tax')}
            defaultValue={s.tax_system}
          />
          <Check
            name="receipts_enabled"
            label={t('admin.seller.receipts_enabled')}
            defaultChecked={s.receipts_enabled}
          />
          <Field
            name="receipt_transport"
            type="select"
            label={t('admin.seller.transport')}
            options={options(TRANSPORTS, 'transports')}
            defaultValue={s.receipt_transport}
          />
        </fieldset>
        <fieldset className="card admin-section">
          <legend>{t('admin.seller.rules')}</legend>
          {KINDS.map((k) => {
            const kind = t(`admin.seller.kinds.${k}`)
            return (
              <div key={k}>
                <Field
                  name={`vat_${k}`}
                  type="select"
                  label={t('admin.seller.vat', { kind })}
                  options={options(VATS, 'vats')}
                  defaultValue={s.item_rules[k].vat}
                />
                <Field
                  name={`object_${k}`}
                  type="select"
                  label={t('admin.seller.payment_object', { kind })}
                  options={options(OBJECTS, 'objects')}
                  defaultValue={s.item_rules[k].payment_object}
                />
              </div>
            )
          })}
        </fieldset>
        <Submit>{t('admin.seller.save')}</Submit>
      </AdminForm>
    </section>
  )
}
