// Error-reporting settings of §9, shared by the browser and the server.

export const SENTRY_SAMPLE_RATES = {
  /** Share of traces sent. */
  tracesSampleRate: 0.001,
  /** Share of error events sent. */
  sampleRate: 0.002,
  replaysSessionSampleRate: 0.001,
  replaysOnErrorSampleRate: 0.001,
} as const

/** Replays keep the page as shoppers saw it: text and media are not masked (§9). */
export const SENTRY_REPLAY_OPTIONS = { maskAllText: false, blockAllMedia: false } as const

/** What the root loader hands the browser; null when error reporting is off. */
export interface PublicSentryConfig {
  dsn: string
  environment: string
  release: string | undefined
}

/** The browser's settings: PUBLIC_SENTRY_DSN, else SENTRY_DSN (a DSN is not a secret). */
export function publicSentryConfig(env: Record<string, string | undefined>): PublicSentryConfig | null {
  const dsn = env.PUBLIC_SENTRY_DSN || env.SENTRY_DSN
  if (!dsn) return null
  return {
    dsn,
    environment: env.SENTRY_ENVIRONMENT || env.NODE_ENV || 'production',
    release: env.SENTRY_RELEASE || undefined,
  }
}
