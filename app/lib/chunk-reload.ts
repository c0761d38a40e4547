// A chunk that fails to load (an old build's file gone after a deploy) reloads the page (§4).

const RELOAD_KEY = 'shop:chunk-reload'

/** Reloads once when a script chunk cannot be loaded; not again within 10 s (no reload loop). */
export function reloadOnChunkError(): () => void {
  const reload = () => {
    try {
      const last = Number(sessionStorage.getItem(RELOAD_KEY) ?? 0)
      if (Date.now() - last < 10_000) return
      sessionStorage.setItem(RELOAD_KEY, String(Date.now()))
    } catch {
      // storage blocked: reload anyway, the browser's own loop guard applies
    }
    window.location.reload()
  }
  const onPreloadError = (e: Event) => {
    e.preventDefault()
    reload()
  }
  const onRejection = (e: PromiseRejectionEvent) => {
    const message = String((e.reason as Error | undefined)?.message ?? e.reason ?? '')
    if (
      /dynamically imported module|Importing a module script failed|error loading dynamically/i.test(message)
    )
      reload()
  }
  window.addEventListener('vite:preloadError', onPreloadError)
  window.addEventListener('unhandledrejection', onRejection)
  return () => {
    window.removeEventListener('vite:preloadError', onPreloadError)
    window.removeEventListener('unhandledrejection', onRejection)
  }
}
