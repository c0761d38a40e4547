import { Link, useNavigate } from '@remix-run/react'
import { type ReactNode, useEffect, useId, useRef } from 'react'
import { useT } from '#app/i18n/i18n-context'
import accountCss from '#app/styles/account.css?url'

/**
 * A popup kept in the URL (e.g. `?auth=1`): server-rendered, so it opens from a link and works
 * without JavaScript; closing is a link to the same page without the parameter. With JavaScript,
 * Escape closes it and focus moves into it (to a `data-autofocus` element when there is one).
 */
export function UserDialog({
  title,
  closeHref,
  children,
}: {
  title: string
  closeHref: string
  children: ReactNode
}) {
  const t = useT()
  const titleId = useId()
  const navigate = useNavigate()
  const ref = useRef<HTMLElement>(null)
  useEffect(() => {
    const box = ref.current
    const first =
      box?.querySelector<HTMLElement>('[data-autofocus]') ??
      box?.querySelector<HTMLElement>('input:not([type="hidden"]), select, button, [href]:not([data-close])')
    first?.focus()
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') navigate(closeHref, { replace: true, preventScrollReset: true })
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [closeHref, navigate])
  return (
    <div className="user-dialog">
      {/* the stylesheet travels with the popup, which any page may show */}
      <link rel="stylesheet" href={accountCss} />
      <Link
        to={closeHref}
        className="user-dialog__backdrop"
        tabIndex={-1}
        aria-hidden="true"
        preventScrollReset
      />
      <section
        ref={ref}
        className="user-dialog__box"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
      >
        <header className="user-dialog__head">
          <h2 id={titleId}>{title}</h2>
          <Link
            to={closeHref}
            className="user-dialog__close"
            aria-label={t('account.close')}
            data-close
            preventScrollReset
            replace
          >
            ×
          </Link>
        </header>
        {children}
      </section>
    </div>
  )
}
