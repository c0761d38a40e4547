// /admin/shop: the shop's own name, logo and support contacts (issue 37), owner only. They replace
// «ИгроМаркет» in the header, footer, page titles and mails. The logo is uploaded here too and the
// footer's and mails' tagline is the owner's (issue 47); the support hours show beside the support
// contact under each game's header and in the footer (issue 50).
import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { AdminForm, Field, Submit } from '#app/components/admin/admin-form'
import { LogoUpload } from '#app/components/admin/logo-upload'
import { rememberShopName } from '#app/i18n/shop-name.server'
import { useT } from '#app/i18n/i18n-context'
import { adminT, badIntent, ownerApi, read, readForm, settle } from '#app/lib/admin/admin.server'
import { uploadLogo } from '#app/lib/admin/logo.server'
import { adminMeta } from '#app/lib/admin/meta'
import { DEFAULT_SHOP_TIMEZONE } from '../../shared/shop-time'

export const meta = adminMeta('shop_settings.title')

/** Russia's zones, west to east; a zone set by SHOP_TIMEZONE elsewhere is offered too. */
const RUSSIAN_ZONES = [
  'Europe/Kaliningrad',
  'Europe/Moscow',
  'Europe/Samara',
  'Asia/Yekaterinburg',
  'Asia/Omsk',
  'Asia/Novosibirsk',
  'Asia/Krasnoyarsk',
  'Asia/Irkutsk',
  'Asia/Yakutsk',
  'Asia/Vladivostok',
  'Asia/Magadan',
  'Asia/Kamchatka',
]
const zoneOptions = (current: string) =>
  RUSSIAN_ZONES.includes(current) ? RUSSIAN_ZONES : [current, ...RUSSIAN_ZONES]

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api } = await ownerApi(request, context)
  const shop = await read(request, api, api.client.GET('/api/admin/shop/'))
  return data({ shop }, { headers: api.headers })
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { api } = await ownerApi(request, context)
  const posted = await readForm(request)
  if (posted.intent === 'logo') return uploadLogo(request, api, posted, 'shop')
  if (posted.intent !== 'save') badIntent()
  const field = (name: string) => String(posted.form.get(name) ?? '')
  const call = api.client
    .PUT('/api/admin/shop/', {
      body: {
        name: field('name'),
        logo: field('logo'),
        support_email: field('support_email'),
        support_phone: field('support_phone'),
        support_hours: field('support_hours'),
        time_zone: field('time_zone'),
        tagline: field('tagline'),
      },
    })
    .then((r) => {
      // this process's pages use the new name at once (others on their next page load)
      if (r.data) rememberShopName(r.data.name)
      return r
    })
  return settle(request, api, posted, call, adminT('admin.shop_settings.saved'))
}

export default function AdminShop() {
  const t = useT()
  const { shop } = useLoaderData<typeof loader>()
  return (
    <section aria-labelledby="admin-h1">
      <h1 id="admin-h1">{t('admin.shop_settings.title')}</h1>
      <p className="field__hint">{t('admin.shop_settings.intro')}</p>
      <section className="card admin-section">
        <AdminForm formKey="shop" intent="save" label={t('admin.shop_settings.title')}>
          <Field name="name" label={t('admin.shop_settings.name')} defaultValue={shop.name} required />
          <Field
            name="logo"
            label={t('admin.shop_settings.logo')}
            hint={t('admin.shop_settings.logo_hint')}
            defaultValue={shop.logo}
          />
          <Field
            name="tagline"
            label={t('admin.shop_settings.tagline')}
            hint={t('admin.shop_settings.tagline_hint', { tagline: t('footer.tagline') })}
            defaultValue={shop.tagline ?? ''}
          />
          <Field
            name="support_email"
            type="email"
            label={t('admin.shop_settings.support_email')}
            defaultValue={shop.support_email}
          />
          <Field
            name="support_phone"
            label={t('admin.shop_settings.support_phone')}
            defaultValue={shop.support_phone}
          />
          <Field
            name="support_hours"
            label={t('admin.shop_settings.support_hours')}
            hint={t('admin.shop_settings.support_hours_hint')}
            defaultValue={shop.support_hours ?? ''}
          />
          <Field
            name="time_zone"
            type="select"
            label={t('admin.shop_settings.time_zone')}
            hint={t('admin.shop_settings.time_zone_hint')}
            defaultValue={shop.time_zone}
            options={zoneOptions(shop.time_zone ?? DEFAULT_SHOP_TIMEZONE).map((z) => {
              const key = `admin.shop_settings.zones.${z.replace('/', '_')}`
              const label = t(key)
              return { value: z, label: label === key ? z : label }
            })}
          />
          <Submit>{t('admin.common.save')}</Submit>
        </AdminForm>
      </section>
      <LogoUpload logo={shop.logo} title={shop.name} />
    </section>
  )
}
