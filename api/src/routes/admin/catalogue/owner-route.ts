// The back-office catalogue's operations: owner only, answering their shape or a Russian error.
import type { RouteConfig, z } from '@hono/zod-openapi'
import { errorResponses, jsonContent } from '../../../lib/schemas'
import { adminRoute } from '../guard'

type Def = {
  method: 'get' | 'post' | 'patch' | 'put' | 'delete'
  path: string
  summary: string
  description?: string
  request?: RouteConfig['request']
}
/** An owner-only catalogue operation answering `ok`. */
export const ownerRoute = <const D extends Def, T extends z.ZodTypeAny>(def: D, ok: T) =>
  adminRoute('owner', {
    ...def,
    responses: { 200: jsonContent(ok), ...errorResponses(400, 403, 404, 409) },
  })
