// A JSON body limit per operation that fits what its schema allows (issue 44, finding 5): the
// contract let an article's text be 200,000 characters while every JSON body was capped at 64 KB,
// so a long privacy policy was a 413. The bound is read from the operation's own published schema
// (the zod schema the route validates with): the longest body it allows, every string at its
// maxLength with each character escaped (`\uXXXX`, six bytes). A schema without such a bound keeps
// the default limit (and its 413 is listed on every operation that takes a body).

type Schema = {
  $ref?: string
  type?: string | string[]
  properties?: Record<string, Schema>
  items?: Schema
  oneOf?: Schema[]
  anyOf?: Schema[]
  allOf?: Schema[]
  enum?: unknown[]
  maxLength?: number
  maxItems?: number
}
type Doc = {
  paths?: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: Schema }> } }>>
  components?: { schemas?: Record<string, Schema> }
}

/** Bytes of the longest JSON text `schema` allows (Infinity when a string or array is unbounded). */
export function jsonBound(schema: Schema, doc: Doc, depth = 0): number {
  if (depth > 20) return Number.POSITIVE_INFINITY
  if (schema.$ref) {
    const target = doc.components?.schemas?.[schema.$ref.replace('#/components/schemas/', '')]
    return target ? jsonBound(target, doc, depth + 1) : Number.POSITIVE_INFINITY
  }
  const alternatives = schema.oneOf ?? schema.anyOf
  if (alternatives) return Math.max(...alternatives.map((s) => jsonBound(s, doc, depth + 1)))
  if (schema.allOf) return schema.allOf.reduce((n, s) => n + jsonBound(s, doc, depth + 1), 0)
  if (schema.enum) return Math.max(...schema.enum.map((v) => JSON.stringify(v).length * 6))
  const types = Array.isArray(schema.type) ? schema.type : [schema.type]
  let bound = 24 // a number, a boolean, null
  if (types.includes('object') || schema.properties)
    bound = Math.max(
      bound,
      2 +
        Object.entries(schema.properties ?? {}).reduce(
          (n, [key, s]) => n + key.length * 6 + 4 + jsonBound(s, doc, depth + 1),
          0,
        ),
    )
  if (types.includes('array') || schema.items) {
    if (schema.maxItems === undefined) return Number.POSITIVE_INFINITY
    bound = Math.max(bound, 2 + schema.maxItems * (1 + jsonBound(schema.items ?? {}, doc, depth + 1)))
  }
  if (types.includes('string')) {
    if (schema.maxLength === undefined) return Number.POSITIVE_INFINITY
    bound = Math.max(bound, 2 + schema.maxLength * 6)
  }
  return bound
}

export interface BodyLimit {
  method: string
  pattern: RegExp
  bytes: number
}

/**
 * Per operation whose bounded JSON body may be longer than `defaultBytes`: that bound, at most
 * `maxBytes`. Every other operation keeps `defaultBytes`.
 */
export function bodyLimitsOf(doc: Doc, defaultBytes: number, maxBytes: number): BodyLimit[] {
  const out: BodyLimit[] = []
  for (const [path, ops] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(ops)) {
      const schema = op.requestBody?.content?.['application/json']?.schema
      if (!schema) continue
      const bound = jsonBound(schema, doc)
      if (!Number.isFinite(bound) || bound <= defaultBytes) continue
      out.push({
        method: method.toUpperCase(),
        pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
        bytes: Math.min(bound, maxBytes),
      })
    }
  }
  return out
}
