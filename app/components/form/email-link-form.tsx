// The "we mail you a link" page (find my orders, a personal-data request): an email (plus the
// page's own fields), a plain post that works without JavaScript, then «check your mail».
import { Form, useNavigation } from '@remix-run/react'
import type { ReactNode } from 'react'
import { useT } from '#app/i18n/i18n-context'
import { ErrorList, Field } from './field'

/** What the page's action answers: the mail is on its way, or the form's errors and its email. */
export type EmailLinkResult =
  | { sent: true; email: string; detail: string }
  | { sent: false; email: string; errors: { email?: string; form?: string } }

export function EmailLinkForm({
  texts,
  idPrefix,
  action,
  result,
  children,
  footer,
}: {
  /** The locale section with the page's texts (title, intro, email, email_hint, submit, sending, sent_*). */
  texts: 'order_lookup' | 'personal_data'
  /** Prefix of the page's ids: `${idPrefix}-title`, `${idPrefix}-email`. */
  idPrefix: string
  action: string
  result: EmailLinkResult | undefined
  /** The page's fields after the email. */
  children?: ReactNode
  /** Under the form (and under «check your mail»). */
  footer?: ReactNode
}) {
  const t = useT()
  const busy = useNavigation().state === 'submitting'
  const errors = result && !result.sent ? result.errors : {}
  const titleId = `${idPrefix}-title`
  return (
    <section className="auth-page card order-find" aria-labelledby={titleId}>
      <h1 id={titleId}>{t(`${texts}.title`)}</h1>
      {result?.sent ? (
        <div role="status">
          <h2>{t(`${texts}.sent_title`)}</h2>
          <p>{result.detail}</p>
          <p className="field__hint">{t(`${texts}.sent_to`, { email: result.email })}</p>
          <p className="field__hint">{t(`${texts}.sent_hint`)}</p>
        </div>
      ) : (
        <>
          <p className="auth-form__intro">{t(`${texts}.intro`)}</p>
          <Form method="post" action={action} aria-labelledby={titleId} noValidate>
            <ErrorList errors={errors.form} />
            <Field
              id={`${idPrefix}-email`}
              label={t(`${texts}.email`)}
              hint={t(`${texts}.email_hint`)}
              error={errors.email}
              name="email"
              type="email"
              inputMode="email"
              autoComplete="email"
              required
              maxLength={254}
              defaultValue={result?.email ?? ''}
            />
            {children}
            <button type="submit" className="button button--primary auth-form__submit" disabled={busy}>
              {busy ? t(`${texts}.sending`) : t(`${texts}.submit`)}
            </button>
          </Form>
        </>
      )}
      {footer}
    </section>
  )
}
