// New-version check (§4, §9): the page knows the build it runs (the Remix manifest version); the
// server says which build is the newest at /version.json. Checked first after 1 s, then every
// 60 min, with a timestamp query so no cache answers. When a newer build is out the shopper is
// told, and the next navigation loads a whole new document (so it runs the new build).
// This module is itself loaded lazily, after the first paint (see ShellEffects); the reload on a
// failed chunk lives in ./chunk-reload, which must be there from the start.

export const VERSION_URL = '/version.json'
export const FIRST_CHECK_MS = 1000
export const CHECK_INTERVAL_MS = 60 * 60 * 1000

export interface VersionCheckOptions {
  current: string
  onNewVersion: (latest: string) => void
  url?: string
  firstDelayMs?: number
  intervalMs?: number
  fetch?: typeof fetch
}

/**
 * Test hook, set before the app starts: `window.__shopVersionCheck = { firstDelayMs, intervalMs,
 * current }` (`current` pretends the page runs another build, without touching the server).
 */
declare global {
  interface Window {
    __shopVersionCheck?: { firstDelayMs?: number; intervalMs?: number; current?: string }
    __remixManifest?: { version?: string }
  }
}

export async function fetchLatestVersion(url: string, doFetch: typeof fetch = fetch): Promise<string | null> {
  const res = await doFetch(`${url}?t=${Date.now()}`, {
    cache: 'no-store',
    headers: { accept: 'application/json' },
  })
  if (!res.ok) return null
  const body = (await res.json()) as { version?: unknown }
  return typeof body.version === 'string' ? body.version : null
}

/** Starts the periodic check; returns a stop function. Stops by itself once a new build is seen. */
export function startVersionCheck(opts: VersionCheckOptions): () => void {
  const url = opts.url ?? VERSION_URL
  let timer: ReturnType<typeof setTimeout> | undefined
  let stopped = false
  const check = async () => {
    try {
      const latest = await fetchLatestVersion(url, opts.fetch)
      if (stopped) return
      if (latest && latest !== opts.current) {
        stopped = true
        opts.onNewVersion(latest)
        return
      }
    } catch {
      // offline or the server is restarting: try again next time
    }
    if (!stopped) timer = setTimeout(check, opts.intervalMs ?? CHECK_INTERVAL_MS)
  }
  timer = setTimeout(check, opts.firstDelayMs ?? FIRST_CHECK_MS)
  return () => {
    stopped = true
    clearTimeout(timer)
  }
}

function isPlainLeftClick(e: MouseEvent): boolean {
  return e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey && !e.defaultPrevented
}

/**
 * From now on, links and forms on this site navigate the browser itself: the events are kept from
 * the router (capture phase on window, before React's listener), so the browser's default action
 * loads a fresh document.
 */
export function reloadOnNextNavigation(): () => void {
  const onClick = (e: MouseEvent) => {
    if (!isPlainLeftClick(e)) return
    const link = (e.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null
    if (!link || link.target === '_blank' || link.hasAttribute('download')) return
    if (new URL(link.href, window.location.href).origin !== window.location.origin) return
    e.stopPropagation()
  }
  const onSubmit = (e: SubmitEvent) => {
    if (!e.defaultPrevented) e.stopPropagation()
  }
  window.addEventListener('click', onClick, true)
  window.addEventListener('submit', onSubmit, true)
  return () => {
    window.removeEventListener('click', onClick, true)
    window.removeEventListener('submit', onSubmit, true)
  }
}
