// /admin/payments: countries, their method groups and methods in the order shoppers see them;
// a method switches off/on with one press, and every level has its edit form (fees, minimum,
// rate, order, provider, hidden) and its add form: an owner sets payments up without SQL.
import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { AdminForm, Check, Field, FileField, Submit, useFailedForm } from '#app/components/admin/admin-form'
import { useT } from '#app/i18n/i18n-context'
import { adminT, badIntent, idFrom, ownerApi, read, readForm, settle } from '#app/lib/admin/admin.server'
import { formBody, formSpec, fromScaled } from '#app/lib/admin/form-body'
import { uploadLogo } from '#app/lib/admin/logo.server'
import { adminMeta } from '#app/lib/admin/meta'
import { currencyName, formatPercent, formatWireAmount } from '#app/lib/money'
import type { components } from '#openapi/schema'

export const meta = adminMeta('payments.title')

type Country = components['schemas']['AdminCountry']
type Group = components['schemas']['AdminPaymentMethodGroup']
type Method = components['schemas']['AdminPaymentMethod']
type Provider = components['schemas']['AdminPaymentProvider']

const COUNTRY_SPEC = formSpec('patch', '/api/admin/payments/countries/{id}/', {
  name: 'optText',
  rate_micro: 'micro',
  sort_order: 'int',
  hidden: 'bool',
})
const COUNTRY_NEW = formSpec('post', '/api/admin/payments/countries/', {
  name: 'text',
  currency: 'text',
  rate_micro: 'micro',
  sort_order: 'int',
  hidden: 'bool',
  is_default: 'bool',
})
const GROUP_NEW = formSpec('post', '/api/admin/payments/countries/{id}/method_groups/', {
  name: 'text',
  short_name: 'optText',
  order: 'int',
})
const METHOD_NEW = formSpec('post', '/api/admin/payments/method_groups/{id}/methods/', {
  name: 'text',
  title: 'text',
  provider: 'text',
  kind: 'optText',
  icon: 'optText',
  is_active: 'bool',
  fee_bp: 'percentBp',
  fix_fee: 'money',
  min_amount: 'money',
  is_secondary: 'bool',
  sort_order: 'int',
})
const GROUP_SPEC = formSpec('patch', '/api/admin/payments/method_groups/{id}/', {
  name: 'optText',
  short_name: 'optText',
  order: 'int',
})
const METHOD_SPEC = formSpec('patch', '/api/admin/payments/methods/{id}/', {
  title: 'optText',
  is_active: 'bool',
  fee_bp: 'percentBp',
  fix_fee: 'money',
  min_amount: 'money',
  is_secondary: 'bool',
  sort_order: 'int',
  provider: 'optText',
  kind: 'optText',
  icon: 'optText',
})

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api } = await ownerApi(request, context)
  const [countries, providers] = await Promise.all([
    read(request, api, api.client.GET('/api/admin/payments/')),
    read(request, api, api.client.GET('/api/admin/payments/providers/')),
  ])
  return data({ countries, providers }, { headers: api.headers })
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { api } = await ownerApi(request, context)
  const posted = await readForm(request)
  const { form, intent } = posted
  const c = api.client
  const byId = () => ({ params: { path: { id: idFrom(form.get('id')) } } })
  switch (intent) {
    case 'country':
      return settle(
        request,
        api,
        posted,
        c.PATCH('/api/admin/payments/countries/{id}/', { ...byId(), body: formBody(form, COUNTRY_SPEC) }),
        adminT('admin.payments.country_saved'),
      )
    case 'group':
      return settle(
        request,
        api,
        posted,
        c.PATCH('/api/admin/payments/method_groups/{id}/', { ...byId(), body: formBody(form, GROUP_SPEC) }),
        adminT('admin.payments.group_saved'),
      )
    case 'method':
      return settle(
        request,
        api,
        posted,
        c.PATCH('/api/admin/payments/methods/{id}/', { ...byId(), body: formBody(form, METHOD_SPEC) }),
        adminT('admin.payments.method_saved'),
      )
    case 'add-country':
      return settle(
        request,
        api,
        posted,
        c.POST('/api/admin/payments/countries/', { body: formBody(form, COUNTRY_NEW) }),
        adminT('admin.payment_setup.country_added'),
      )
    case 'add-group':
      return settle(
        request,
        api,
        posted,
        c.POST('/api/admin/payments/countries/{id}/method_groups/', {
          ...byId(),
          body: formBody(form, GROUP_NEW),
        }),
        adminT('admin.payment_setup.group_added'),
      )
    case 'add-method':
      return settle(
        request,
        api,
        posted,
        c.POST('/api/admin/payments/method_groups/{id}/methods/', {
          ...byId(),
          body: formBody(form, METHOD_NEW),
        }),
        adminT('admin.payment_setup.method_added'),
      )
    case 'delete-country':
      return settle(
        request,
        api,
        posted,
        c.DELETE('/api/admin/payments/countries/{id}/', byId()),
        adminT('admin.payment_setup.delete.country_deleted'),
      )
    case 'delete-group':
      return settle(
        request,
        api,
        posted,
        c.DELETE('/api/admin/payments/method_groups/{id}/', byId()),
        adminT('admin.payment_setup.delete.group_deleted'),
      )
    case 'delete-method':
      return settle(
        request,
        api,
        posted,
        c.DELETE('/api/admin/payments/methods/{id}/', byId()),
        adminT('admin.payment_setup.delete.method_deleted'),
      )
    case 'icon':
      return uploadLogo(request, api, posted, 'methods', idFrom(form.get('id')))
    case 'switch': {
      const on = form.get('is_active') === 'true'
      return settle(
        request,
        api,
        posted,
        c.PATCH('/api/admin/payments/methods/{id}/', { ...byId(), body: { is_active: on } }),
        adminT(on ? 'admin.payments.switched_on' : 'admin.payments.switched_off'),
      )
    }
    default:
      badIntent()
  }
}

/** The provider and kind choices (every kind listed: the API checks it against the provider). */
function ProviderFields({ providers, m }: { providers: Provider[]; m?: Method }) {
  const t = useT()
  const names = providers.map((p) => p.name as string)
  // a method of a provider no longer offered (the sandbox in production) keeps its current value
  const options = m && !names.includes(m.provider) ? [...names, m.provider] : names
  const kinds = [...new Set(providers.flatMap((p) => p.kinds))]
  const ready = new Map(providers.map((p) => [p.name as string, p.ready]))
  return (
    <>
      <Field
        name="provider"
        type="select"
        label={t('admin.payment_setup.provider')}
        defaultValue={m?.provider ?? names[0] ?? ''}
        options={options.map((n) => {
          const label = t(`admin.payment_setup.providers.${n}`)
          return {
            value: n,
            label: ready.get(n) ? label : t('admin.payment_setup.provider_no_keys', { name: label }),
          }
        })}
      />
      <Field
        name="kind"
        type="select"
        label={t('admin.payment_setup.kind')}
        hint={t('admin.payment_setup.kind_hint')}
        defaultValue={m?.kind ?? ''}
        options={[
          { value: '', label: t('admin.payment_setup.kind_none') },
          ...kinds.map((k) => ({ value: k, label: t(`admin.payment_setup.kinds.${k}`) })),
        ]}
      />
      <Field
        name="icon"
        label={t('admin.payment_setup.icon')}
        hint={t('admin.payment_setup.icon_hint')}
        defaultValue={m?.icon ?? ''}
      />
    </>
  )
}

/**
 * Deleting, behind its own summary (two presses, no script): a refusal (payments name it, the
 * default country) shows in the form, offering to switch off or hide instead.
 */
function DeleteForm({
  formKey,
  intent,
  id,
  label,
  hint,
  open,
}: {
  formKey: string
  intent: string
  id: number
  label: string
  hint: string
  open: boolean
}) {
  const t = useT()
  return (
    <details open={open || undefined}>
      <summary>{label}</summary>
      <AdminForm formKey={formKey} intent={intent} label={label} hidden={{ id }}>
        <p className="field__hint">{hint}</p>
        <Submit danger>{t('admin.payment_setup.delete.submit')}</Submit>
      </AdminForm>
    </details>
  )
}

function MethodItem({ m, failed, providers }: { m: Method; failed: string | null; providers: Provider[] }) {
  const open = failed === `method-${m.id}`
  const t = useT()
  const switchKey = m.is_active ? 'admin.payments.switch_off' : 'admin.payments.switch_on'
  // fixed fee and minimum are in the method's own currency
  const currency = m.currencies[0] ?? 'RUB'
  return (
    <li className="card" data-testid={`method-${m.name}`}>
      <p className="admin-row">
        <strong>{m.title}</strong>
        <span className={`admin-status admin-status--${m.is_active ? 'done' : 'cancelled'}`}>
          {t(m.is_active ? 'admin.payments.on' : 'admin.payments.off')}
        </span>
      </p>
      <p className="field__hint">
        {t(m.fix_fee === '0.00' ? 'admin.payments.fee_percent' : 'admin.payments.fee_line', {
          fee: formatPercent(m.fee_bp),
          fix: formatWireAmount(m.fix_fee, currency),
        })}{' '}
        · {t('admin.payments.min_line', { min: formatWireAmount(m.min_amount, currency) })} ·{' '}
        {t('admin.payments.provider', { provider: m.provider })}
      </p>
      {m.provider_ready ? null : (
        <p className="form-error" data-testid={`method-${m.name}-not-ready`}>
          {t('admin.payment_setup.not_ready', { provider: m.provider })}
        </p>
      )}
      <AdminForm
        formKey={`switch-${m.id}`}
        intent="switch"
        className="admin-inline"
        label={`${t(switchKey)}: ${m.title}`}
        hidden={{ id: m.id, is_active: String(!m.is_active) }}
      >
        <Submit danger={m.is_active}>{t(switchKey)}</Submit>
      </AdminForm>
      <details open={open || undefined}>
        <summary>{t('admin.common.edit')}</summary>
        <AdminForm
          formKey={`method-${m.id}`}
          intent="method"
          label={t('admin.payments.method_edit', { title: m.title })}
          hidden={{ id: m.id }}
        >
          <Field name="title" label={t('admin.payments.title_field')} defaultValue={m.title} />
          <ProviderFields providers={providers} m={m} />
          <Field
            name="fee_bp"
            type="number"
            inputMode="decimal"
            label={t('admin.payments.fee')}
            hint={t('admin.payments.fee_hint')}
            defaultValue={fromScaled(m.fee_bp, 2)}
          />
          <Field
            name="fix_fee"
            type="number"
            inputMode="decimal"
            label={t('admin.payments.fix_fee', { currency })}
            hint={t('admin.payments.amount_hint')}
            defaultValue={m.fix_fee}
          />
          <Field
            name="min_amount"
            type="number"
            inputMode="decimal"
            label={t('admin.payments.min_amount', { currency })}
            hint={t('admin.payments.amount_hint')}
            defaultValue={m.min_amount}
          />
          <Field
            name="sort_order"
            type="number"
            label={t('admin.payments.sort_order')}
            hint={t('admin.payments.order_hint')}
            defaultValue={m.sort_order}
          />
          <Check name="is_active" label={t('admin.payments.is_active')} defaultChecked={m.is_active} />
          <Check
            name="is_secondary"
            label={t('admin.payments.is_secondary')}
            defaultChecked={m.is_secondary}
          />
          <Submit>{t('admin.common.save')}</Submit>
        </AdminForm>
      </details>
      <details open={failed === `icon-${m.id}` || undefined}>
        <summary>{t('admin.payment_setup.icon_upload.title', { title: m.title })}</summary>
        {m.icon ? <img className="admin-method-icon" src={m.icon} alt="" width={32} height={32} /> : null}
        <AdminForm
          formKey={`icon-${m.id}`}
          intent="icon"
          label={t('admin.payment_setup.icon_upload.title', { title: m.title })}
          encType="multipart/form-data"
          hidden={{ id: m.id }}
        >
          <FileField
            name="icon"
            label={t('admin.payment_setup.icon_upload.file')}
            hint={t('admin.payment_setup.icon_upload.hint')}
            accept="image/png,image/jpeg,image/webp,image/gif"
          />
          <Submit>{t('admin.payment_setup.icon_upload.submit')}</Submit>
        </AdminForm>
      </details>
      <DeleteForm
        formKey={`delete-method-${m.id}`}
        intent="delete-method"
        id={m.id}
        label={t('admin.payment_setup.delete.method', { title: m.title })}
        hint={t('admin.payment_setup.delete.method_hint')}
        open={failed === `delete-method-${m.id}`}
      />
    </li>
  )
}

type Setup = { failed: string | null; providers: Provider[] }

function AddMethod({ g, currency, failed, providers }: { g: Group; currency: string } & Setup) {
  const t = useT()
  const label = t('admin.payment_setup.add_method', { name: g.name })
  return (
    <details open={failed === `add-method-${g.id}` || undefined}>
      <summary>{label}</summary>
      <AdminForm formKey={`add-method-${g.id}`} intent="add-method" label={label} hidden={{ id: g.id }}>
        <Field name="title" label={t('admin.payments.title_field')} required />
        <Field
          name="name"
          label={t('admin.payment_setup.method_name')}
          hint={t('admin.payment_setup.method_name_hint')}
          required
        />
        <ProviderFields providers={providers} />
        <Field
          name="fee_bp"
          type="number"
          inputMode="decimal"
          label={t('admin.payments.fee')}
          hint={t('admin.payments.fee_hint')}
        />
        <Field
          name="fix_fee"
          type="number"
          inputMode="decimal"
          label={t('admin.payments.fix_fee', { currency })}
          hint={t('admin.payments.amount_hint')}
        />
        <Field
          name="min_amount"
          type="number"
          inputMode="decimal"
          label={t('admin.payments.min_amount', { currency })}
          hint={t('admin.payments.amount_hint')}
        />
        <Field
          name="sort_order"
          type="number"
          label={t('admin.payments.sort_order')}
          hint={t('admin.payments.order_hint')}
        />
        <Check name="is_active" label={t('admin.payments.is_active')} defaultChecked={false} />
        <Check name="is_secondary" label={t('admin.payments.is_secondary')} defaultChecked={false} />
        <Submit>{t('admin.common.add')}</Submit>
      </AdminForm>
    </details>
  )
}

function GroupSection({ g, currency, failed, providers }: { g: Group; currency: string } & Setup) {
  const t = useT()
  return (
    <section className="admin-section" aria-labelledby={`group-${g.id}`}>
      <h3 id={`group-${g.id}`}>{g.name}</h3>
      <details open={failed === `group-${g.id}` || undefined}>
        <summary>{t('admin.payments.group_edit', { name: g.name })}</summary>
        <AdminForm
          formKey={`group-${g.id}`}
          intent="group"
          label={t('admin.payments.group_edit', { name: g.name })}
          hidden={{ id: g.id }}
        >
          <Field name="name" label={t('admin.payments.name')} defaultValue={g.name} />
          <Field name="short_name" label={t('admin.payments.short_name')} defaultValue={g.short_name} />
          <Field
            name="order"
            type="number"
            label={t('admin.payments.sort_order')}
            hint={t('admin.payments.order_hint')}
            defaultValue={g.order}
          />
          <Submit>{t('admin.common.save')}</Submit>
        </AdminForm>
      </details>
      {g.methods.length === 0 ? <p>{t('admin.payments.no_methods')}</p> : null}
      <ul className="admin-cards">
        {g.methods.map((m) => (
          <MethodItem key={m.id} m={m} failed={failed} providers={providers} />
        ))}
      </ul>
      <AddMethod g={g} currency={currency} failed={failed} providers={providers} />
      <DeleteForm
        formKey={`delete-group-${g.id}`}
        intent="delete-group"
        id={g.id}
        label={t('admin.payment_setup.delete.group', { name: g.name })}
        hint={t('admin.payment_setup.delete.group_hint')}
        open={failed === `delete-group-${g.id}`}
      />
    </section>
  )
}

function AddGroup({ c, failed }: { c: Country; failed: string | null }) {
  const t = useT()
  const label = t('admin.payment_setup.add_group', { name: c.name })
  return (
    <details open={failed === `add-group-${c.id}` || undefined}>
      <summary>{label}</summary>
      <AdminForm formKey={`add-group-${c.id}`} intent="add-group" label={label} hidden={{ id: c.id }}>
        <Field name="name" label={t('admin.payments.name')} required />
        <Field name="short_name" label={t('admin.payments.short_name')} />
        <Field
          name="order"
          type="number"
          label={t('admin.payments.sort_order')}
          hint={t('admin.payments.order_hint')}
        />
        <Submit>{t('admin.common.add')}</Submit>
      </AdminForm>
    </details>
  )
}

function AddCountry({ failed }: { failed: string | null }) {
  const t = useT()
  const label = t('admin.payment_setup.add_country')
  return (
    <details className="card" open={failed === 'add-country' || undefined}>
      <summary>{label}</summary>
      <AdminForm formKey="add-country" intent="add-country" label={label}>
        <Field name="name" label={t('admin.payments.name')} required />
        <Field
          name="currency"
          label={t('admin.payment_setup.currency_code')}
          hint={t('admin.payment_setup.currency_hint')}
          defaultValue="RUB"
          required
        />
        <Field
          name="rate_micro"
          type="number"
          inputMode="decimal"
          label={t('admin.payment_setup.rate_new')}
          hint={t('admin.payment_setup.rate_new_hint')}
          defaultValue="1"
        />
        <Field
          name="sort_order"
          type="number"
          label={t('admin.payments.sort_order')}
          hint={t('admin.payments.order_hint')}
        />
        <Check name="hidden" label={t('admin.payment_setup.hidden')} defaultChecked={false} />
        <Check name="is_default" label={t('admin.payment_setup.is_default')} defaultChecked={false} />
        <Submit>{t('admin.common.add')}</Submit>
      </AdminForm>
    </details>
  )
}

function CountrySection({ c, failed, providers }: { c: Country } & Setup) {
  const t = useT()
  return (
    <section className="card admin-section" aria-labelledby={`country-${c.id}`}>
      <h2 id={`country-${c.id}`}>{c.name}</h2>
      <p className="field__hint">
        {t('admin.payments.currency', { currency: currencyName(c.currency) })}
        {c.is_default ? ` · ${t('admin.payments.default')}` : ''}
        {c.hidden ? ` · ${t('admin.payment_setup.hidden_badge')}` : ''}
      </p>
      <details open={failed === `country-${c.id}` || undefined}>
        <summary>{t('admin.payments.country_edit', { name: c.name })}</summary>
        <AdminForm
          formKey={`country-${c.id}`}
          intent="country"
          label={t('admin.payments.country_edit', { name: c.name })}
          hidden={{ id: c.id }}
        >
          <Field name="name" label={t('admin.payments.name')} defaultValue={c.name} />
          <Field
            name="rate_micro"
            type="number"
            inputMode="decimal"
            label={t('admin.payments.rate', { currency: c.currency })}
            hint={t('admin.payments.rate_hint')}
            defaultValue={fromScaled(c.rate_micro, 6)}
          />
          <Field
            name="sort_order"
            type="number"
            label={t('admin.payments.sort_order')}
            hint={t('admin.payments.order_hint')}
            defaultValue={c.sort_order}
          />
          <Check name="hidden" label={t('admin.payment_setup.hidden')} defaultChecked={c.hidden} />
          <Submit>{t('admin.common.save')}</Submit>
        </AdminForm>
      </details>
      {c.method_groups.map((g) => (
        <GroupSection key={g.id} g={g} currency={c.currency} failed={failed} providers={providers} />
      ))}
      <AddGroup c={c} failed={failed} />
      {c.is_default ? null : (
        // the default country is where buyers land: another becomes the default first
        <DeleteForm
          formKey={`delete-country-${c.id}`}
          intent="delete-country"
          id={c.id}
          label={t('admin.payment_setup.delete.country', { name: c.name })}
          hint={t('admin.payment_setup.delete.country_hint')}
          open={failed === `delete-country-${c.id}`}
        />
      )}
    </section>
  )
}

export default function AdminPayments() {
  const t = useT()
  const { countries, providers } = useLoaderData<typeof loader>()
  const failed = useFailedForm()
  const anyMethod = countries.some((c) => c.method_groups.some((g) => g.methods.length > 0))
  return (
    <section aria-labelledby="admin-h1">
      <h1 id="admin-h1">{t('admin.payments.title')}</h1>
      <p>{t('admin.payments.intro')}</p>
      {anyMethod ? null : (
        <p className="form-error" role="status">
          {t('admin.payment_setup.empty')}
        </p>
      )}
      {countries.map((c) => (
        <CountrySection key={c.id} c={c} failed={failed} providers={providers} />
      ))}
      <AddCountry failed={failed} />
    </section>
  )
}
