import { type ComponentType, Suspense } from 'react'

/** A component whose code is loaded on demand; see <Deferred>. */
export interface DeferredComponent<P> {
  /** Loads the code (once); the server's loader awaits it before rendering. */
  preload(): Promise<void>
  readonly loaded: ComponentType<P> | null
}

export function deferredComponent<P>(load: () => Promise<ComponentType<P>>): DeferredComponent<P> {
  let loaded: ComponentType<P> | null = null
  let pending: Promise<void> | null = null
  return {
    get loaded() {
      return loaded
    },
    preload() {
      pending ??= load().then(
        (component) => {
          loaded = component
        },
        (error: unknown) => {
          pending = null // try again next time (e.g. a chunk that failed to download)
          throw error
        },
      )
      return pending
    },
  }
}

function Slot<P extends object>({ of, props }: { of: DeferredComponent<P>; props: P }) {
  const Loaded = of.loaded
  // the Suspense protocol: throwing the promise suspends until the code is there
  if (!Loaded) throw of.preload()
  return <Loaded {...props} />
}

/**
 * Renders a component whose code stays out of the page's first-load JavaScript, yet renders on the
 * server like any other (so the page is complete without JavaScript):
 * - on the server the loader awaits `preload()` first, so it renders at once;
 * - in the browser the server's HTML stays in place while the code loads (the Suspense boundary
 *   hydrates when its code arrives); later renders show nothing until it is there.
 */
export function Deferred<P extends object>({ of, props }: { of: DeferredComponent<P>; props: P }) {
  return (
    <Suspense fallback={null}>
      <Slot of={of} props={props} />
    </Suspense>
  )
}
