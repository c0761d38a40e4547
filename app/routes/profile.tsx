import {
  type ActionFunctionArgs,
  data,
  type LoaderFunctionArgs,
  type MetaFunction,
  redirect,
} from '@remix-run/node'
import { Form, Link, NavLink, Outlet, useLoaderData, useLocation } from '@remix-run/react'
import { UserDialog } from '#app/components/user-dialog'
import { useT } from '#app/i18n/i18n-context'
import { getServerT } from '#app/i18n/i18n.server'
import { SOCIAL_PROVIDERS, type SocialProvider } from '#app/lib/account'
import { loadSocialProviders, loadUser, requireAccessCookie } from '#app/lib/account.server'
import { apiFor, errorText } from '#app/lib/api/client.server'
import { formatWireMoney } from '#app/lib/money'
import { redirectWithToast } from '#app/lib/toast.server'
import accountCss from '#app/styles/account.css?url'
import { metaT } from '#app/components/catalogue/meta-t'

export const links = () => [{ rel: 'stylesheet', href: accountCss }]

export const meta: MetaFunction = ({ matches }) => [
  { title: metaT(matches)('account.profile_title') },
  { name: 'robots', content: 'noindex' },
]

/** /profile (protected, §5): without the access cookie, or with a dead one, the visitor goes to `/`. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  requireAccessCookie(request)
  const api = apiFor(request, context)
  const [user, providers] = await Promise.all([loadUser(request, context), loadSocialProviders(api)])
  if (!user) throw redirect('/', { headers: api.headers })
  return data(
    { user, bindable: providers.bind as SocialProvider[], unbindable: providers.unbind as SocialProvider[] },
    { headers: api.headers },
  )
}

/** Unbinding a social account, and deleting the account (the user-deletion popup, §2). */
export async function action({ request, context }: ActionFunctionArgs) {
  requireAccessCookie(request)
  const { t } = await getServerT(request)
  const form = await request.formData()
  const api = apiFor(request, context)
  const intent = form.get('intent')
  if (intent === 'delete') {
    const { response, error } = await api.client.POST('/api/auth/profile/delete/')
    if (!response.ok)
      return redirectWithToast(
        '/profile',
        { type: 'error', text: errorText(error) ?? t('errors.generic_error') },
        { request, headers: api.headers },
      )
    api.logout()
    return redirectWithToast(
      '/',
      { type: 'success', text: t('account.delete.done') },
      { request, headers: api.headers },
    )
  }
  if (intent === 'unbind') {
    const provider = String(form.get('provider') ?? '')
    if (!(SOCIAL_PROVIDERS as readonly string[]).includes(provider)) throw data(null, { status: 400 })
    const name = t(`account.providers.${provider}`)
    const { data: profile, error } = await api.client.POST('/api/auth/social/{provider}/unbind/', {
      params: { path: { provider: provider as 'vk_id' } },
      body: {},
    })
    const toast = profile
      ? { type: 'success' as const, text: t('account.unbound_done', { provider: name }) }
      : { type: 'error' as const, text: errorText(error) ?? t('errors.generic_error') }
    return redirectWithToast('/profile', toast, { request, headers: api.headers })
  }
  throw data(null, { status: 400 })
}

export default function ProfileLayout() {
  const t = useT()
  const { user, bindable, unbindable } = useLoaderData<typeof loader>()
  const location = useLocation()
  const deleting = new URLSearchParams(location.search).get('delete') === '1'
  const providers = SOCIAL_PROVIDERS.filter((p) => user.socialAccounts.includes(p) || bindable.includes(p))
  return (
    <div className="profile">
      <h1>{t('account.profile_title')}</h1>
      <section className="profile-card card" aria-labelledby="profile-summary">
        <h2 id="profile-summary" className="visually-hidden">
          {t('account.profile_title')}
        </h2>
        <div className="profile-card__who">
          {user.avatarImg ? (
            <img
              className="profile-card__avatar"
              src={user.avatarImg}
              alt={t('account.avatar_alt')}
              width="72"
              height="72"
            />
          ) : (
            <span className="profile-card__avatar profile-card__avatar--empty" aria-hidden="true">
              {(user.nickname || user.email || '?').slice(0, 1).toUpperCase()}
            </span>
          )}
          <dl className="profile-card__facts">
            <div>
              <dt>{t('account.nickname')}</dt>
              <dd>{user.nickname || t('account.no_nickname')}</dd>
            </div>
            <div>
              <dt>{t('account.email')}</dt>
              <dd>{user.email ?? t('account.no_email')}</dd>
            </div>
            <div>
              <dt>{t('account.balance')}</dt>
              <dd data-testid="profile-balance">{formatWireMoney(user.balance, t('common.currency'))}</dd>
            </div>
            <div>
              <dt>{t('account.promo')}</dt>
              <dd>{user.activePromoCode ?? t('account.no_promo')}</dd>
            </div>
          </dl>
        </div>
        {providers.length > 0 ? (
          <section className="profile-social" aria-labelledby="profile-social">
            <h3 id="profile-social">{t('account.social_title')}</h3>
            <ul>
              {providers.map((p) => {
                const name = t(`account.providers.${p}`)
                const bound = user.socialAccounts.includes(p)
                return (
                  <li key={p} className="profile-social__item">
                    <span>
                      {name}:{' '}
                      <span className={bound ? 'badge' : 'badge badge--muted'}>
                        {t(bound ? 'account.bound' : 'account.not_bound')}
                      </span>
                    </span>
                    {bound && unbindable.includes(p) ? (
                      <Form method="post" action="/profile">
                        <input type="hidden" name="intent" value="unbind" />
                        <input type="hidden" name="provider" value={p} />
                        <button type="submit" className="button">
                          {t('account.unbind', { provider: name })}
                        </button>
                      </Form>
                    ) : null}
                    {!bound && bindable.includes(p) ? (
                      <form method="post" action={`/auth/${p}/start`}>
                        {/* a document submission: the start route redirects to the provider */}
                        <input type="hidden" name="mode" value="bind" />
                        <input type="hidden" name="returnTo" value="/profile" />
                        <button type="submit" className="button">
                          {t('account.bind', { provider: name })}
                        </button>
                      </form>
                    ) : null}
                  </li>
                )
              })}
            </ul>
          </section>
        ) : null}
      </section>
      <nav className="profile-tabs" aria-label={t('account.tabs.label')}>
        <NavLink to="/profile" end>
          {t('account.tabs.history')}
        </NavLink>
        <NavLink to="/profile/balance">{t('account.tabs.balance')}</NavLink>
        <NavLink to="/profile/settings">{t('account.tabs.settings')}</NavLink>
        <NavLink to="/profile/security">{t('account.tabs.security')}</NavLink>
      </nav>
      <Outlet />
      <p className="profile-delete">
        <Link to="?delete=1" preventScrollReset className="button profile-delete__open">
          {t('account.delete.open')}
        </Link>
      </p>
      {deleting ? (
        <UserDialog title={t('account.delete.title')} closeHref={location.pathname}>
          <p>{t('account.delete.text')}</p>
          <Form method="post" action="/profile" className="profile-delete__form">
            <input type="hidden" name="intent" value="delete" />
            <button type="submit" className="button button--danger">
              {t('account.delete.confirm')}
            </button>
            {/* a destructive choice: focus starts on the safe one */}
            <Link to={location.pathname} className="button" replace data-autofocus>
              {t('account.delete.cancel')}
            </Link>
          </Form>
        </UserDialog>
      ) : null}
    </div>
  )
}
