// Client-side entry to the notification area: `notify({type, text})` from event handlers,
// effects or plain modules (the version check). Toasts sent before the area mounts are kept.
import type { ToastInput } from './queue'

type Listener = (toast: ToastInput) => void

let listener: Listener | null = null
const early: ToastInput[] = []

export function notify(toast: ToastInput): void {
  if (listener) listener(toast)
  else early.push(toast)
}

/** Used by the notification area: receives every toast, starting with those sent before it. */
export function listenForToasts(fn: Listener): () => void {
  listener = fn
  for (const toast of early.splice(0)) fn(toast)
  return () => {
    if (listener === fn) listener = null
  }
}
