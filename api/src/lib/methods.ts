// Which methods an API path answers (issue 44, finding 1): a request with a method its path does
// not declare is a 405 naming the ones it does (`Allow`), not a 404 and never another method's
// answer. Read from the app's own route table, so it follows every route as it is registered.
import type { Hono } from 'hono'

/** Methods no route of the shop answers; the node adapter even hands TRACE on as a GET. */
export const NEVER_ANSWERED = new Set(['TRACE', 'TRACK', 'CONNECT'])

type Route = { pattern: RegExp; method: string }
const tables = new WeakMap<object, Route[]>()

const patternOf = (path: string) =>
  new RegExp(
    `^${path
      .split('/')
      .map((seg) =>
        seg === '*'
          ? '.*'
          : seg.startsWith(':')
            ? paramPattern(seg)
            : seg.replace(/[.+?^${}()|[\]\\]/g, '\\$&'),
      )
      .join('/')}$`,
  )

/** A `:name` segment matches any segment; `:name{regex}` (e.g. the media route) only what its regex does. */
function paramPattern(seg: string): string {
  const open = seg.indexOf('{')
  return open > 0 && seg.endsWith('}') ? `(?:${seg.slice(open + 1, -1)})` : '[^/]+'
}

function tableOf(app: Hono<never>): Route[] {
  let table = tables.get(app)
  if (!table) {
    // middleware is registered for ALL methods; only handlers of one method declare a method
    table = app.routes
      .filter((r) => r.method !== 'ALL')
      .map((r) => ({ pattern: patternOf(r.path), method: r.method.toUpperCase() }))
    tables.set(app, table)
  }
  return table
}

/**
 * The methods `path` answers (GET brings HEAD), in a stable order, or null when no route has this
 * path at all (a 404 then).
 */
export function allowedMethods(app: Hono<never>, path: string): string[] | null {
  const methods = new Set(
    tableOf(app)
      .filter((r) => r.pattern.test(path))
      .map((r) => r.method),
  )
  if (methods.size === 0) return null
  if (methods.has('GET')) methods.add('HEAD')
  const order = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']
  return [...methods].sort((a, b) => order.indexOf(a) - order.indexOf(b))
}
