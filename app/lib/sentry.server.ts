// Server error reporting: initialised in the server process only when SENTRY_DSN is set; the SDK
// is not even loaded otherwise.
import { SENTRY_SAMPLE_RATES } from './sentry-options'

type SentryServer = typeof import('@sentry/remix')

let sdk: Promise<SentryServer> | null = null

export async function initServerSentry(env: Record<string, string | undefined>): Promise<boolean> {
  if (!env.SENTRY_DSN) return false
  sdk = import('@sentry/remix')
  const Sentry = await sdk
  Sentry.init({
    dsn: env.SENTRY_DSN,
    environment: env.SENTRY_ENVIRONMENT || env.NODE_ENV || 'production',
    release: env.SENTRY_RELEASE || undefined,
    tracesSampleRate: SENTRY_SAMPLE_RATES.tracesSampleRate,
    sampleRate: SENTRY_SAMPLE_RATES.sampleRate,
    attachStacktrace: true,
  })
  return true
}

/** Reports an unexpected server error when reporting is on (no-op otherwise). */
export function captureServerError(error: unknown, request?: Request): void {
  if (!process.env.SENTRY_DSN) return
  // the Remix server build is a separate bundle: reach the SDK the server process initialised
  void (sdk ?? import('@sentry/remix'))
    .then(async (Sentry) => {
      if (request) await Sentry.captureRemixServerException(error, 'remix.server', request)
      else Sentry.captureException(error)
    })
    .catch(() => {})
}
