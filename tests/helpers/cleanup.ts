// Resources a test file opens (databases, proxies, processes), closed after its last test in the
// reverse order they were opened; a failing close does not stop the others.
import { afterAll } from 'vitest'

export function cleanupAfterAll(): Array<() => Promise<unknown>> {
  const cleanup: Array<() => Promise<unknown>> = []
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c().catch(() => {})
  })
  return cleanup
}
