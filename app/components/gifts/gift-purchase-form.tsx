import { Form, useActionData, useNavigation, useRouteLoaderData } from '@remix-run/react'
import { ConsentField } from '#app/components/consent-field'
import { Field } from '#app/components/form/field'
import { useT } from '#app/i18n/i18n-context'
import type { GiftDetail } from '#app/lib/view-models/gift'
import type { RootLoaderData } from '#app/root'
import type { PurchaseActionData } from './gift-purchase.server'

/** The signed-in user's email from the root loader (null for guests). */
function useAccountEmail(): string | null {
  const root = useRouteLoaderData('root') as RootLoaderData | undefined
  return root?.user?.email ?? null
}

/**
 * Buys a gift: a plain POST form (works without JavaScript) with the email and a hidden
 * idempotency key (fields `email`, `idempotency_key`: see purchaseGift); the action creates the
 * order and redirects to its payment page.
 */
export function GiftPurchaseForm({
  gift,
  idempotencyKey,
  rememberedEmail = null,
}: {
  gift: GiftDetail
  idempotencyKey: string
  /** A guest's email this device remembers (issue 50). */
  rememberedEmail?: string | null
}) {
  const t = useT()
  const actionData = useActionData<PurchaseActionData>()
  const navigation = useNavigation()
  const accountEmail = useAccountEmail()
  // from the click until the payment page has loaded: a second click cannot place a second order
  const busy = navigation.state !== 'idle' && navigation.formMethod === 'POST'
  const emailError = actionData?.field === 'email'
  return (
    <Form method="post" className="gift-purchase card" aria-labelledby="gift-purchase-heading">
      <h2 id="gift-purchase-heading">{t('gifts.purchase.heading')}</h2>
      <input type="hidden" name="idempotency_key" value={idempotencyKey} />
      <Field
        id="gift-email"
        label={t('gifts.purchase.email_label')}
        hint={t('gifts.purchase.email_hint')}
        error={emailError ? actionData?.formError : undefined}
        announce
        name="email"
        type="email"
        autoComplete="email"
        required={accountEmail === null}
        defaultValue={actionData?.email ?? accountEmail ?? rememberedEmail ?? ''}
      />
      {accountEmail === null ? (
        <ConsentField
          id="gift-consent"
          error={actionData?.field === 'consent' ? actionData.formError : null}
          defaultChecked={actionData?.consent}
          autoFocus={actionData?.field === 'consent'}
        />
      ) : null}
      {actionData?.formError && actionData.field !== 'consent' && !emailError ? (
        <p id="gift-purchase-error" className="form-error" role="alert">
          {actionData.formError}
        </p>
      ) : null}
      {gift.inStock ? null : (
        <p id="gift-out-of-stock" className="gift-purchase__out">
          {t('gifts.purchase.out_of_stock')}
        </p>
      )}
      <button
        type="submit"
        className="button button--primary gift-purchase__submit"
        disabled={!gift.inStock || busy}
        aria-describedby={gift.inStock ? undefined : 'gift-out-of-stock'}
      >
        {busy ? t('gifts.purchase.submitting') : t('gifts.purchase.submit', { price: gift.currentPriceText })}
      </button>
    </Form>
  )
}
