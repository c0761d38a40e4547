// Browser error reporting. Only ever loaded by a dynamic import after the first paint, and only
// when the root loader passed a DSN: without one, no byte of the SDK reaches the browser.
import { useEffect } from 'react'
import { useLocation, useMatches } from '@remix-run/react'
import * as Sentry from '@sentry/remix'
import { type PublicSentryConfig, SENTRY_REPLAY_OPTIONS, SENTRY_SAMPLE_RATES } from './sentry-options'

export function initBrowserSentry(config: PublicSentryConfig): void {
  Sentry.init({
    dsn: config.dsn,
    environment: config.environment,
    release: config.release,
    ...SENTRY_SAMPLE_RATES,
    attachStacktrace: true,
    integrations: [
      Sentry.browserTracingIntegration({ useEffect, useLocation, useMatches }),
      Sentry.replayIntegration({ ...SENTRY_REPLAY_OPTIONS }),
    ],
  })
}
