import { useEffect, useRef } from 'react'
import { notify } from '#app/components/notifications/notify'
import { useT } from '#app/i18n/i18n-context'
import type { PublicSentryConfig } from '#app/lib/sentry-options'
import { reloadOnChunkError } from '#app/lib/chunk-reload'

/** Runs `fn` once the browser is idle after the first paint. */
function afterFirstPaint(fn: () => void): () => void {
  let idle: number | undefined
  const frame = requestAnimationFrame(() => {
    idle =
      typeof requestIdleCallback === 'function'
        ? requestIdleCallback(fn, { timeout: 3000 })
        : (setTimeout(fn, 1) as unknown as number)
  })
  return () => {
    cancelAnimationFrame(frame)
    if (idle !== undefined) {
      if (typeof cancelIdleCallback === 'function') cancelIdleCallback(idle)
      else clearTimeout(idle)
    }
  }
}

/**
 * Browser-only duties of the app shell: reload on a failed chunk, the new-version check (§4, §9)
 * and, when a DSN is configured, error reporting loaded after the first paint (§9).
 */
export function ShellEffects({ sentry }: { sentry: PublicSentryConfig | null }) {
  const t = useT()
  const newVersionText = useRef('')
  newVersionText.current = t('shell.new_version')

  useEffect(() => reloadOnChunkError(), [])

  // the check itself is loaded after the first paint: it is not needed to show the page
  useEffect(() => {
    const current = window.__shopVersionCheck?.current ?? window.__remixManifest?.version
    if (!current) return
    let stop: (() => void) | undefined
    let undo: (() => void) | undefined
    let cancelled = false
    const cancelPaint = afterFirstPaint(() => {
      void import('#app/lib/version-check').then(({ startVersionCheck, reloadOnNextNavigation }) => {
        if (cancelled) return
        const overrides = window.__shopVersionCheck
        stop = startVersionCheck({
          current,
          firstDelayMs: overrides?.firstDelayMs,
          intervalMs: overrides?.intervalMs,
          onNewVersion: () => {
            notify({ type: 'warning', text: newVersionText.current })
            undo = reloadOnNextNavigation()
          },
        })
      })
    })
    return () => {
      cancelled = true
      cancelPaint()
      stop?.()
      undo?.()
    }
  }, [])

  const dsn = sentry?.dsn
  // biome-ignore lint/correctness/useExhaustiveDependencies: initialise once per DSN
  useEffect(() => {
    if (!sentry) return
    return afterFirstPaint(() => {
      void import('#app/lib/sentry.client').then((m) => m.initBrowserSentry(sentry))
    })
  }, [dsn])

  return null
}
