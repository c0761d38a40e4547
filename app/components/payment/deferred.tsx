import { type ComponentType, Suspense } from 'react'

/**
 * A component whose code stays out of the page's first-load JavaScript, yet renders on the server
 * like any other (so the page is complete without JavaScript):
 * - on the server the loader awaits `preload()` first, so it renders at once;
 * - in the browser the server's HTML stays in place while the code loads (a Suspense boundary
 *   hydrates when its code arrives); later renders show nothing until it is there.
 */
export function deferred<P extends object>(load: () => Promise<ComponentType<P>>) {
  let Component: ComponentType<P> | null = null
  let pending: Promise<void> | null = null
  const preload = (): Promise<void> => {
    pending ??= load().then(
      (loaded) => {
        Component = loaded
      },
      (error: unknown) => {
        pending = null // try again next time (e.g. a chunk that failed to download)
        throw error
      },
    )
    return pending
  }
  function Slot(props: P) {
    // the Suspense protocol: throwing the promise suspends until the code is loaded
    if (!Component) throw preload()
    return <Component {...props} />
  }
  function Deferred(props: P) {
    return (
      <Suspense fallback={null}>
        <Slot {...props} />
      </Suspense>
    )
  }
  return Object.assign(Deferred, { preload })
}
