import { Form, useNavigation } from '@remix-run/react'
import { ErrorList, Field } from '#app/components/form/field'
import { useT } from '#app/i18n/i18n-context'

export interface AccountPromoState {
  error: string
  code: string
}

/**
 * The account's promo code in the profile (§7 /api/promo_codes/…): the one saved, with a button to
 * remove it, or a field to save one. Posts to the settings tab's action (account-promo.server.ts); works without JavaScript.
 */
export function AccountPromo({ active, state }: { active: string | null; state: AccountPromoState | null }) {
  const t = useT()
  const navigation = useNavigation()
  const busy =
    navigation.state !== 'idle' && String(navigation.formData?.get('intent') ?? '').startsWith('promo_')
  return (
    <section className="profile-promo" aria-labelledby="account-promo-title">
      <h3 id="account-promo-title">{t('account.promo_code.title')}</h3>
      <p className="field__hint">{t('account.promo_code.hint')}</p>
      {active ? (
        <Form method="post" action="/profile/settings" className="profile-promo__active">
          <input type="hidden" name="intent" value="promo_remove" />
          <p role="status">
            {t('account.promo_code.active')} <strong data-testid="account-promo">{active}</strong>
          </p>
          <button type="submit" className="button" disabled={busy}>
            {t('account.promo_code.remove')}
          </button>
          <ErrorList errors={state?.error} id="account-promo-error" />
        </Form>
      ) : (
        <Form method="post" action="/profile/settings" noValidate className="profile-promo__form">
          <input type="hidden" name="intent" value="promo_apply" />
          <Field
            id="account-promo-code"
            label={t('account.promo_code.label')}
            error={state?.error || undefined}
            announce
          >
            {(control) => (
              <div className="profile-promo__row">
                <input
                  {...control}
                  name="code"
                  defaultValue={state?.code ?? ''}
                  autoComplete="off"
                  autoCapitalize="characters"
                  spellCheck={false}
                  maxLength={64}
                />
                <button type="submit" className="button" disabled={busy}>
                  {t('account.promo_code.save')}
                </button>
              </div>
            )}
          </Field>
        </Form>
      )}
    </section>
  )
}
