import { useFetcher } from '@remix-run/react'
import { useId } from 'react'
import { ConsentField } from '#app/components/consent-field'
import { ErrorList, Field } from '#app/components/form/field'
import { useT } from '#app/i18n/i18n-context'

/** What the /auth action answers when sign-in fails (it redirects when it succeeds). */
export interface AuthActionData {
  errors: { email?: string; password?: string; consent?: string; form?: string }
  values: { email: string; consent?: boolean }
}

/**
 * Email and password sign-in or sign-up, plus the configured social providers. The form posts to
 * /auth (a real form: works without JavaScript); with JavaScript it posts in place and shows the
 * errors where it is.
 */
export function AuthForm({
  returnTo,
  providers,
  pageResult,
}: {
  returnTo: string
  providers: readonly string[]
  /** The /auth page's own action data (after a post without JavaScript). */
  pageResult?: AuthActionData
}) {
  const t = useT()
  const fetcher = useFetcher<AuthActionData>()
  const result = fetcher.data ?? pageResult
  const busy = fetcher.state !== 'idle'
  const id = useId()
  const errors = result?.errors ?? {}
  return (
    <div className="auth-form">
      <p className="auth-form__intro">{t('account.auth_intro')}</p>
      <fetcher.Form
        method="post"
        action={`/auth?returnTo=${encodeURIComponent(returnTo)}`}
        noValidate
        aria-describedby={errors.form ? `${id}-form` : undefined}
      >
        <input type="hidden" name="returnTo" value={returnTo} />
        <ErrorList id={`${id}-form`} errors={errors.form} />
        <Field
          id={`${id}-email`}
          label={t('account.email')}
          error={errors.email}
          name="email"
          type="email"
          autoComplete="email"
          inputMode="email"
          required
          defaultValue={result?.values.email ?? ''}
        />
        <Field
          id={`${id}-password`}
          label={t('account.password')}
          hint={t('account.password_hint')}
          error={errors.password}
          name="password"
          type="password"
          autoComplete="current-password"
          required
          minLength={8}
        />
        <ConsentField
          id={`${id}-consent`}
          error={errors.consent}
          defaultChecked={result?.values.consent}
          hint={t('legal.consent.sign_up_hint')}
        />
        <button type="submit" className="button button--primary auth-form__submit" disabled={busy}>
          {busy ? t('account.submitting') : t('account.submit')}
        </button>
        <p className="auth-form__forgot">
          {/* a document navigation: the popup's form is replaced by the reset page */}
          <a href="/auth/forgot">{t('account.forgot_link')}</a>
        </p>
      </fetcher.Form>
      {providers.length > 0 ? (
        <div className="auth-form__social">
          <p>{t('account.or_social')}</p>
          <ul>
            {providers.map((p) => (
              <li key={p}>
                {/* a POST (a GET starts nothing) and a document submission: the start route
                    redirects the browser to the provider */}
                <form method="post" action={`/auth/${p}/start`}>
                  <input type="hidden" name="returnTo" value={returnTo} />
                  <button type="submit" className={`button auth-social auth-social--${p}`}>
                    {t('account.social_with', { provider: t(`account.providers.${p}`) })}
                  </button>
                </form>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  )
}
