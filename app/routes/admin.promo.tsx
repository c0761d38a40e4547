// /admin/promo: every promo code with its usage, a form to create one, and per code its edit form
// and a one-press switch off/on.
import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { AdminForm, Check, Field, Submit, useFailedForm } from '#app/components/admin/admin-form'
import { CheckField } from '#app/components/form/field'
import { useShopTimeZone, useWhen } from '#app/lib/shop-time'
import { loadShop } from '#app/lib/shop.server'
import { zoneLabel } from '../../shared/shop-time'
import { useT } from '#app/i18n/i18n-context'
import { adminT, badIntent, idFrom, ownerApi, read, readForm, settle } from '#app/lib/admin/admin.server'
import { type JsonBody, formBody, formSpec, toDateTimeLocal } from '#app/lib/admin/form-body'
import { adminMeta } from '#app/lib/admin/meta'
import type { components } from '#openapi/schema'

export const meta = adminMeta('promo.title')

type Promo = components['schemas']['AdminPromoCode']
type OrderKind = Promo['excluded_kinds'][number]

/** Order kinds a code can be excluded from, in the order the promo screen lists them. */
const ORDER_KINDS: readonly OrderKind[] = [
  'PUBGOrder',
  'StandoffOrder',
  'MooGoldOrder',
  'SteamOrder',
  'RokkyOrder',
]

/** The kinds ticked «не действует на» (unknown values are the API's to refuse). */
const excludedOf = (form: FormData) => ({ excluded_kinds: form.getAll('exclude').map(String) as OrderKind[] })

const EDIT_SPEC = formSpec('patch', '/api/admin/promo_codes/{id}/', {
  percent: 'int',
  max_uses: 'nullableInt',
  expires_at: 'nullableDateTime',
  is_active: 'bool',
})
const CREATE_SPEC = formSpec('post', '/api/admin/promo_codes/', {
  code: 'text',
  percent: 'int',
  max_uses: 'nullableInt',
  expires_at: 'nullableDateTime',
  is_active: 'bool',
})
type Target = Pick<JsonBody<'/api/admin/promo_codes/', 'post'>, 'game' | 'gift' | 'resourcetype'>

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api } = await ownerApi(request, context)
  const [codes, games, gifts] = await Promise.all([
    read(request, api, api.client.GET('/api/admin/promo_codes/')),
    read(request, api, api.client.GET('/api/admin/games/')),
    read(request, api, api.client.GET('/api/admin/gifts/')),
  ])
  return data(
    {
      // newest first: the code just made is on top of the list
      codes: [...codes].reverse(),
      games: games.map((g) => ({ id: g.id, title: g.title })),
      gifts: gifts.map((g) => ({ id: g.id, title: g.title })),
      now: Date.now(),
    },
    { headers: api.headers },
  )
}

/**
 * The one "for what" select → the API's game, gift or kind for every game / every gift (nothing
 * picked: the API says to pick).
 */
function target(form: FormData): Target {
  const v = String(form.get('game') ?? '')
  const m = /^(game|gift):([1-9]\d{0,8})$/.exec(v)
  if (m) return { [m[1]!]: Number(m[2]) }
  if (v === 'all:PromoCode') return { resourcetype: 'PromoCode' }
  return v === 'all:GiftPromoCode' ? { resourcetype: 'GiftPromoCode' } : {}
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { api } = await ownerApi(request, context)
  const [posted, shop] = await Promise.all([readForm(request), loadShop(request, context)])
  const zone = shop.time_zone
  const { form, intent } = posted
  const c = api.client
  const byId = () => ({ params: { path: { id: idFrom(form.get('id')) } } })
  switch (intent) {
    case 'create':
      return settle(
        request,
        api,
        posted,
        c.POST('/api/admin/promo_codes/', {
          body: { ...formBody(form, CREATE_SPEC, zone), ...target(form), ...excludedOf(form) },
        }),
        adminT('admin.promo.added'),
      )
    case 'edit':
      return settle(
        request,
        api,
        posted,
        c.PATCH('/api/admin/promo_codes/{id}/', {
          ...byId(),
          body: { ...formBody(form, EDIT_SPEC, zone), ...excludedOf(form) },
        }),
        adminT('admin.promo.saved'),
      )
    case 'switch': {
      const on = form.get('is_active') === 'true'
      return settle(
        request,
        api,
        posted,
        c.PATCH('/api/admin/promo_codes/{id}/', { ...byId(), body: { is_active: on } }),
        adminT(on ? 'admin.promo.switched_on' : 'admin.promo.switched_off'),
      )
    }
    default:
      badIntent()
  }
}

type PromoState = 'active' | 'inactive' | 'expired' | 'exhausted'

function stateOf(p: Promo, now: number): PromoState {
  if (!p.is_active) return 'inactive'
  if (p.expires_at && Date.parse(p.expires_at) <= now) return 'expired'
  if (p.max_uses !== null && p.used_count >= p.max_uses) return 'exhausted'
  return 'active'
}

const STATE_BADGE: Record<PromoState, string> = {
  active: 'done',
  inactive: 'cancelled',
  expired: 'failed',
  exhausted: 'failed',
}

function PromoFields({ promo }: { promo?: Promo }) {
  const t = useT()
  const zone = useShopTimeZone()
  return (
    <>
      <Field name="percent" type="number" label={t('admin.promo.percent')} defaultValue={promo?.percent} />
      <Field
        name="max_uses"
        type="number"
        label={t('admin.promo.max_uses')}
        hint={t('admin.promo.max_uses_hint')}
        defaultValue={promo?.max_uses}
      />
      <Field
        name="expires_at"
        type="datetime-local"
        label={t('admin.promo.expires_at', { zone: zoneLabel(zone) })}
        hint={t('admin.promo.expires_hint')}
        defaultValue={toDateTimeLocal(promo?.expires_at ?? null, zone)}
      />
      <Check name="is_active" label={t('admin.promo.is_active')} defaultChecked={promo?.is_active ?? true} />
      <fieldset className="admin-form__wide">
        <legend>{t('admin.promo.exclude')}</legend>
        {ORDER_KINDS.map((kind) => (
          <CheckField
            key={kind}
            id={`exclude-${promo?.id ?? 'new'}-${kind}`}
            name="exclude"
            value={kind}
            defaultChecked={promo?.excluded_kinds.includes(kind) ?? false}
            label={t(`admin.promo.kinds.${kind}`)}
          />
        ))}
        <p className="field__hint">{t('admin.promo.steam_rule')}</p>
      </fieldset>
    </>
  )
}

/** For each order kind, what the code takes its percent off (decision 126). */
function Discounts({ promo }: { promo: Promo }) {
  const t = useT()
  const byKind = new Map(promo.discounts.map((d) => [d.kind, d.target]))
  return (
    <dl className="admin-dl" aria-label={t('admin.promo.discounts', { code: promo.code })}>
      {ORDER_KINDS.map((kind) => (
        <div key={kind}>
          <dt>{t(`admin.promo.kinds.${kind}`)}</dt>
          <dd>{t(`admin.promo.targets.${byKind.get(kind) ?? 'none'}`, { percent: promo.percent })}</dd>
        </div>
      ))}
    </dl>
  )
}

export default function AdminPromo() {
  const formatWhen = useWhen()
  const t = useT()
  const { codes, games, gifts, now } = useLoaderData<typeof loader>()
  const failed = useFailedForm()
  const titleOf = (p: Promo) => {
    if (p.game === null && p.gift === null)
      return t(p.resourcetype === 'PromoCode' ? 'admin.promo.all_games' : 'admin.promo.all_gifts')
    const list = p.game !== null ? games : gifts
    const id = p.game ?? p.gift ?? 0
    const title = list.find((x) => x.id === id)?.title ?? t('admin.promo.unknown_target', { id })
    return t(p.game !== null ? 'admin.promo.target_game' : 'admin.promo.target_gift', { title })
  }
  return (
    <section aria-labelledby="admin-h1">
      <h1 id="admin-h1">{t('admin.promo.title')}</h1>

      <section className="admin-section" aria-labelledby="promo-list">
        <h2 id="promo-list">{t('admin.promo.list')}</h2>
        {codes.length === 0 ? <p>{t('admin.promo.none')}</p> : null}
        <ul className="admin-cards">
          {codes.map((p) => {
            const state = stateOf(p, now)
            return (
              <li key={p.id} className="card" data-testid={`promo-${p.code}`}>
                <p className="admin-row">
                  <strong className="admin-mono">{p.code}</strong>
                  <span>−{p.percent}%</span>
                  <span className={`admin-status admin-status--${STATE_BADGE[state]}`}>
                    {t(`admin.promo.states.${state}`)}
                  </span>
                </p>
                <p className="field__hint">
                  {titleOf(p)} ·{' '}
                  {p.max_uses === null
                    ? t('admin.promo.used_unlimited', { used: p.used_count })
                    : t('admin.promo.used', { used: p.used_count, max: p.max_uses })}{' '}
                  · {t('admin.promo.redemptions', { count: p.redemptions })} ·{' '}
                  {p.expires_at
                    ? t('admin.promo.until', { when: formatWhen(p.expires_at) })
                    : t('admin.promo.forever')}
                </p>
                <Discounts promo={p} />
                <AdminForm
                  formKey={`switch-${p.id}`}
                  intent="switch"
                  className="admin-inline"
                  label={`${t(p.is_active ? 'admin.promo.switch_off' : 'admin.promo.switch_on')}: ${p.code}`}
                  hidden={{ id: p.id, is_active: String(!p.is_active) }}
                >
                  <Submit danger={p.is_active}>
                    {t(p.is_active ? 'admin.promo.switch_off' : 'admin.promo.switch_on')}
                  </Submit>
                </AdminForm>
                <details open={failed === `promo-${p.id}` || undefined}>
                  <summary>{t('admin.common.edit')}</summary>
                  <AdminForm
                    formKey={`promo-${p.id}`}
                    intent="edit"
                    label={t('admin.promo.edit', { code: p.code })}
                    hidden={{ id: p.id }}
                  >
                    <PromoFields promo={p} />
                    <Submit>{t('admin.common.save')}</Submit>
                  </AdminForm>
                </details>
              </li>
            )
          })}
        </ul>
      </section>
      <section className="card admin-section" aria-labelledby="promo-add">
        <h2 id="promo-add">{t('admin.promo.add')}</h2>
        <AdminForm formKey="create" intent="create" label={t('admin.promo.add')} key={codes.length}>
          <Field name="code" label={t('admin.promo.code')} hint={t('admin.promo.code_hint')} required />
          <Field
            name="game"
            type="select"
            label={t('admin.promo.target')}
            options={[
              { value: '', label: t('admin.promo.target_pick') },
              { value: 'all:PromoCode', label: t('admin.promo.all_games') },
              { value: 'all:GiftPromoCode', label: t('admin.promo.all_gifts') },
              ...games.map((g) => ({ value: `game:${g.id}`, label: t('admin.promo.target_game', g) })),
              ...gifts.map((g) => ({ value: `gift:${g.id}`, label: t('admin.promo.target_gift', g) })),
            ]}
          />
          <PromoFields />
          <Submit>{t('admin.common.add')}</Submit>
        </AdminForm>
      </section>
    </section>
  )
}
