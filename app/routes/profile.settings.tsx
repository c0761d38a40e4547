import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useActionData, useNavigation, useRouteLoaderData } from '@remix-run/react'
import { AccountPromo } from '#app/components/account-promo'
import { ErrorList, Field } from '#app/components/form/field'
import { ForgetDeviceForm } from '#app/components/forget-device'
import { useT } from '#app/i18n/i18n-context'
import { getServerT } from '#app/i18n/i18n.server'
import { requireAccessCookie } from '#app/lib/account.server'
import { accountPromoAction } from '#app/lib/account-promo.server'
import { apiFor, errorText } from '#app/lib/api/client.server'
import { multipart, postedFile } from '#app/lib/api/multipart'
import { redirectWithToast } from '#app/lib/toast.server'
import type { loader as profileLoader } from './profile'
import { metaT } from '#app/components/catalogue/meta-t'

export const meta: MetaFunction = ({ matches }) => [
  { title: metaT(matches)('account.settings.title') },
  { name: 'robots', content: 'noindex' },
]

export function loader({ request }: LoaderFunctionArgs) {
  requireAccessCookie(request)
  return null
}

type SettingsResult = { errors: { nickname?: string; avatar_img?: string; form?: string } }

/**
 * Nickname and avatar (multipart, forwarded to the API, which checks the image by its content), and
 * the account's promo code (its own small form, `intent` promo_apply / promo_remove).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  requireAccessCookie(request)
  const { t } = await getServerT(request)
  const form = await request.formData()
  const intent = form.get('intent')
  if (intent === 'promo_apply' || intent === 'promo_remove') {
    return accountPromoAction(request, apiFor(request, context), t, form)
  }
  const nickname = form.get('nickname')
  const api = apiFor(request, context)
  const { data: profile, error } = await api.client.POST('/api/auth/profile/', {
    body: {
      nickname: typeof nickname === 'string' ? nickname : undefined,
      avatar_img: postedFile(form, 'avatar_img'),
      remove_avatar: form.get('remove_avatar') ? '1' : undefined,
    },
    bodySerializer: multipart,
  })
  if (!profile) {
    const fields = (error as { fields?: Record<string, string[]> } | undefined)?.fields
    return data<SettingsResult>(
      {
        errors: {
          form: errorText(error) ?? t('errors.generic_error'),
          nickname: fields?.nickname?.[0],
          avatar_img: fields?.avatar_img?.[0],
        },
      },
      { status: 400, headers: api.headers },
    )
  }
  return redirectWithToast(
    '/profile/settings',
    { type: 'success', text: t('account.settings.saved') },
    { request, headers: api.headers },
  )
}

export default function ProfileSettings() {
  const t = useT()
  const profile = useRouteLoaderData<typeof profileLoader>('routes/profile')
  const result = useActionData<typeof action>()
  const busy = useNavigation().state === 'submitting'
  const errors = result && 'errors' in result ? result.errors : {}
  const promoState = result && 'promo' in result ? result.promo : null
  const user = profile?.user
  return (
    <section className="profile-settings card" aria-labelledby="settings-title">
      <h2 id="settings-title">{t('account.settings.title')}</h2>
      <Form method="post" encType="multipart/form-data" action="/profile/settings">
        <ErrorList errors={errors.form} />
        <Field
          id="settings-nickname"
          label={t('account.nickname')}
          hint={t('account.settings.nickname_hint')}
          error={errors.nickname}
          name="nickname"
          maxLength={50}
          autoComplete="nickname"
          defaultValue={user?.nickname ?? ''}
        />
        <Field
          id="settings-avatar"
          label={t('account.settings.avatar')}
          hint={t('account.settings.avatar_hint')}
          error={errors.avatar_img}
          name="avatar_img"
          type="file"
          accept="image/png,image/jpeg,image/webp,image/gif"
        />
        {user?.avatarImg ? (
          <div className="field field--inline">
            <label>
              <input type="checkbox" name="remove_avatar" value="1" /> {t('account.settings.remove_avatar')}
            </label>
          </div>
        ) : null}
        <button type="submit" className="button button--primary" disabled={busy}>
          {t('account.settings.save')}
        </button>
      </Form>
      <AccountPromo active={user?.activePromoCode ?? null} state={promoState} />
      {/* what this device may remember of orders made here before signing in (issue 50) */}
      <section className="profile-device" aria-labelledby="device-data-title">
        <h3 id="device-data-title">{t('account.device_data.title')}</h3>
        <ForgetDeviceForm returnTo="/profile/settings" note={t('account.device_data.profile')} />
      </section>
    </section>
  )
}
