// /admin/antifraud — «Антифрод» (issue 34), owner only: the velocity limits on order creation and
// payment starts, and which risk rules hold a paid order for review, with their thresholds. One post
// form that works without JavaScript; the API's Russian messages come back by their fields.
import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { AdminForm, Check, Field, Submit } from '#app/components/admin/admin-form'
import { useT } from '#app/i18n/i18n-context'
import { adminT, badIntent, ownerApi, read, readForm, settle } from '#app/lib/admin/admin.server'
import { formBody, formSpec, fromScaled } from '#app/lib/admin/form-body'
import { adminMeta } from '#app/lib/admin/meta'

export const meta = adminMeta('antifraud.title')

/** The rules in the order the form lists them, each with the threshold fields it uses. */
const RULES = [
  ['first_order_over', ['first_order_over']],
  ['promo_first_order_over', ['promo_first_order_over']],
  ['paid_per_email', ['paid_per_hour']],
  ['paid_per_card', []],
  ['paid_per_address', ['paid_per_address_hour']],
  ['card_many_emails', ['card_emails_per_day']],
  ['card_country', []],
  ['disposable_email', []],
] as const

const LIMITS = ['order_per_address', 'order_per_email', 'payment_per_address', 'payment_per_email'] as const

const SPEC = formSpec('put', '/api/admin/antifraud/', {
  order_per_address: 'int',
  order_per_email: 'int',
  payment_per_address: 'int',
  payment_per_email: 'int',
  window_minutes: 'int',
  first_order_over: 'rubles',
  promo_first_order_over: 'rubles',
  paid_per_hour: 'int',
  paid_per_address_hour: 'int',
  card_emails_per_day: 'int',
})
type SpecField = Extract<keyof typeof SPEC, string>

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api } = await ownerApi(request, context)
  const settings = await read(request, api, api.client.GET('/api/admin/antifraud/'))
  return data({ settings }, { headers: api.headers })
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { api } = await ownerApi(request, context)
  const posted = await readForm(request)
  if (posted.intent !== 'save') badIntent()
  // every rule is listed in RULES, so every rule is sent (the body's type checks it)
  const rules = Object.fromEntries(RULES.map(([r]) => [r, posted.form.get(`rule_${r}`) !== null])) as Record<
    (typeof RULES)[number][0],
    boolean
  >
  const body = { ...formBody(posted.form, SPEC), rules }
  return settle(
    request,
    api,
    posted,
    api.client.PUT('/api/admin/antifraud/', { body }),
    adminT('admin.antifraud.saved'),
  )
}

export default function AdminAntifraud() {
  const t = useT()
  const { settings: s } = useLoaderData<typeof loader>()
  const k = (key: string) => t(`admin.antifraud.${key}`)
  const value = (name: SpecField) => (SPEC[name] === 'rubles' ? fromScaled(s[name], 2) : String(s[name]))
  return (
    <section aria-labelledby="admin-h1">
      <h1 id="admin-h1">{k('title')}</h1>
      <p className="field__hint">{k('intro')}</p>
      <p>
        <Link to="/admin/blocks">{k('blocks_link')}</Link> ·{' '}
        <Link to="/admin/delivery/review">{k('review_link')}</Link>
      </p>
      <section className="card admin-section">
        <AdminForm formKey="antifraud" intent="save" label={k('title')}>
          <fieldset>
            <legend>{k('limits')}</legend>
            <p className="field__hint">{k('limits_hint')}</p>
            {LIMITS.map((name) => (
              <Field
                key={name}
                name={name}
                type="number"
                label={k(`fields.${name}`)}
                defaultValue={value(name)}
              />
            ))}
            <Field
              name="window_minutes"
              type="number"
              label={k('fields.window_minutes')}
              defaultValue={value('window_minutes')}
            />
          </fieldset>
          <fieldset>
            <legend>{k('rules')}</legend>
            <p className="field__hint">{k('rules_hint')}</p>
            {RULES.map(([rule, fields]) => (
              <div key={rule} className="admin-rule">
                <Check
                  name={`rule_${rule}`}
                  label={t(`admin.review.rules.${rule}`)}
                  defaultChecked={s.rules[rule] === true}
                />
                {fields.map((name) => (
                  <Field
                    key={name}
                    name={name}
                    type="number"
                    inputMode={SPEC[name] === 'rubles' ? 'decimal' : 'numeric'}
                    label={k(`fields.${name}`)}
                    defaultValue={value(name)}
                  />
                ))}
              </div>
            ))}
          </fieldset>
          <Submit>{t('admin.common.save')}</Submit>
        </AdminForm>
      </section>
    </section>
  )
}
