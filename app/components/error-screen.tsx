import { isRouteErrorResponse, Link } from '@remix-run/react'
import { useT } from '#app/i18n/i18n-context'

/** Status and message of whatever a loader threw. */
export function describeError(error: unknown): { status: number; message: string | null } {
  if (isRouteErrorResponse(error)) {
    const data = error.data as unknown
    const message =
      typeof data === 'string'
        ? data
        : data && typeof data === 'object' && 'message' in data && typeof data.message === 'string'
          ? data.message
          : null
    return { status: error.status, message }
  }
  return { status: 500, message: null }
}

/**
 * The error screen of §2: the status code, a heading (not-found for 404, generic otherwise), the
 * detail when there is one, and a button back to the home page. The title is the product name
 * followed by the status.
 */
export function ErrorScreen({ error }: { error: unknown }) {
  const t = useT()
  const { status, message } = describeError(error)
  const heading = status === 404 ? t('errors.not_found') : t('errors.any_other')
  return (
    <section className="error-screen" aria-labelledby="error-heading">
      <p className="error-screen__status" aria-hidden="true">
        {status}
      </p>
      <h1 id="error-heading">{heading}</h1>
      {message ? <p className="error-screen__detail">{message}</p> : null}
      <Link className="button button--primary" to="/" reloadDocument>
        {t('buttons.back_home')}
      </Link>
    </section>
  )
}
