import { Link, useNavigate } from '@remix-run/react'
import { type ReactNode, useEffect, useId, useRef } from 'react'
import { useT } from '#app/i18n/i18n-context'
import accountCss from '#app/styles/account.css?url'

/**
 * A popup kept in the URL (e.g. `?auth=1`): server-rendered, so it opens from a link and works
 * without JavaScript; closing is a link to the same page without the parameter. The page behind
 * does not scroll while it is open (CSS, `body:has(.user-dialog)`, so also without JavaScript).
 * With JavaScript, Escape closes it, focus moves into it (to a `data-autofocus` element when
 * there is one), Tab and Shift+Tab stay inside it, and on close focus returns to what had it.
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
  // focus back to the opener (the link or button that had it) when the popup goes away
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null
    return () => {
      if (opener?.isConnected && opener !== document.body) opener.focus({ preventScroll: true })
    }
  }, [])
  // the first field gets focus on opening, unless the shopper is already typing in the popup
  // (server-rendered, it works before hydration: taking focus then sent the password into the email)
  useEffect(() => {
    const box = ref.current
    if (box?.contains(document.activeElement)) return
    const first =
      box?.querySelector<HTMLElement>('[data-autofocus]') ??
      box?.querySelector<HTMLElement>('input:not([type="hidden"]), select, button, [href]:not([data-close])')
    first?.focus()
  }, [])
  useEffect(() => {
    const box = ref.current
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') navigate(closeHref, { replace: true, preventScrollReset: true })
      if (e.key === 'Tab' && box) trapTab(box, e)
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

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([type="hidden"]):not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])'

/** Tab from the last focusable element goes to the first, Shift+Tab from the first to the last. */
function trapTab(box: HTMLElement, e: KeyboardEvent) {
  const items = [...box.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (el) => el.getClientRects().length > 0,
  )
  const first = items[0]
  const last = items[items.length - 1]
  if (!first || !last) return
  const active = document.activeElement
  if (e.shiftKey && (active === first || !box.contains(active))) {
    e.preventDefault()
    last.focus()
  } else if (!e.shiftKey && (active === last || !box.contains(active))) {
    e.preventDefault()
    first.focus()
  }
}
