// fast-check arbitraries generated from the shop's own OpenAPI 3.1 document: path params, query
// params and JSON bodies of every operation, from their JSON Schemas ($ref, oneOf/anyOf/allOf,
// enums, const, formats, bounds). `valid` values follow the schema; `wrong` values break it on
// purpose (a wrong type, a missing required field, an unknown shape) so the fuzz mixes both.
import fc from 'fast-check'
import type {
  JsonSchema,
  OpenApiDocument,
  OpenApiParameter,
  Operation,
} from '../../shared/openapi-operations'

export {
  type JsonSchema,
  listOperations,
  type OpenApiDocument,
  type OpenApiParameter,
  type Operation,
} from '../../shared/openapi-operations'

/** Follows a local `#/components/schemas/X` reference (repeatedly). */
export function deref(doc: OpenApiDocument, schema: JsonSchema): JsonSchema {
  let s = schema
  for (let i = 0; s.$ref && i < 20; i++) {
    const name = s.$ref.replace('#/components/schemas/', '')
    const target = doc.components?.schemas?.[name]
    if (!target) throw new Error(`unresolved $ref ${s.$ref}`)
    s = target
  }
  return s
}

/** A value of the wrong kind for almost any field: the fuzz's "garbage" half. */
export const junkValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
  fc.constantFrom(0, -1, 2 ** 31, 2 ** 53 + 2, 1e308, -1e-9, 0.5),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom(
    '',
    ' ',
    '0',
    '-1',
    'null',
    '1e999',
    "'; DROP TABLE orders;--",
    '../../etc/passwd',
    '\u0000',
  ),
  fc.constant('x'.repeat(3000)),
  fc.constant([]),
  fc.constant({}),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
)

function types(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type
  if (schema.type) return [schema.type]
  if (schema.properties) return ['object']
  if (schema.items) return ['array']
  return []
}

function stringArbitrary(s: JsonSchema): fc.Arbitrary<string> {
  const max = Math.min(s.maxLength ?? 40, 200)
  const min = Math.min(s.minLength ?? 0, max)
  switch (s.format) {
    case 'email':
      return fc.emailAddress().filter((e) => e.length <= max)
    case 'uuid':
      return fc.uuid()
    case 'date-time':
      return fc
        .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
        .map((d) => d.toISOString())
    case 'date':
      return fc
        .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10))
    case 'uri':
    case 'url':
      return fc.webUrl()
    default:
      break
  }
  if (s.pattern) {
    try {
      return fc.stringMatching(new RegExp(s.pattern)).filter((v) => v.length >= min && v.length <= max)
    } catch {
      // a pattern JavaScript cannot compile: fall through to plain strings
    }
  }
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ minLength: min, maxLength: max }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: min, maxLength: max }) },
    // a NUL byte: legal JSON, refused by PostgreSQL's text type
    {
      weight: 1,
      arbitrary: fc
        .string({ maxLength: Math.max(0, max - 1) })
        .map((v) => `${v}\u0000`.slice(-Math.max(max, 1))),
    },
  )
}

function numberArbitrary(s: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const lo =
    s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + (integer ? 1 : 1e-6) : undefined)
  const hi =
    s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - (integer ? 1 : 1e-6) : undefined)
  if (integer) {
    const min = Math.max(lo ?? -1000, -(2 ** 31))
    const max = Math.min(hi ?? 100_000, 2 ** 31 - 1)
    return fc.oneof(
      fc.integer({ min, max }),
      fc.constantFrom(...[min, max, 0, 1].filter((n) => n >= min && n <= max)),
    )
  }
  return fc.double({ min: lo ?? -1e6, max: hi ?? 1e6, noNaN: true, noDefaultInfinity: true })
}

export interface ArbitraryOptions {
  /** Extra candidate values for a property or parameter, by name (real ids make requests go deep). */
  pools?: Record<string, readonly unknown[]>
  depth?: number
}

/** Values that satisfy `schema` (as far as a generator can: patterns and formats best-effort). */
export function validArbitrary(
  doc: OpenApiDocument,
  schema: JsonSchema,
  opts: ArbitraryOptions = {},
  name?: string,
): fc.Arbitrary<unknown> {
  const s = deref(doc, schema)
  const depth = opts.depth ?? 0
  const pool = name ? opts.pools?.[name] : undefined
  const own = ownArbitrary(doc, s, { ...opts, depth: depth + 1 })
  if (pool && pool.length > 0) {
    return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...pool) }, { weight: 1, arbitrary: own })
  }
  return own
}

function ownArbitrary(doc: OpenApiDocument, s: JsonSchema, opts: ArbitraryOptions): fc.Arbitrary<unknown> {
  if ((opts.depth ?? 0) > 8) return fc.constant(null)
  if (s.const !== undefined) return fc.constant(s.const)
  if (s.enum) return fc.constantFrom(...s.enum)
  if (s.allOf) {
    return fc
      .tuple(...s.allOf.map((part) => validArbitrary(doc, part, opts)))
      .map((parts) => Object.assign({}, ...parts.filter((p) => p && typeof p === 'object')))
  }
  const alternatives = s.oneOf ?? s.anyOf
  if (alternatives) return fc.oneof(...alternatives.map((alt) => validArbitrary(doc, alt, opts)))

  const kinds = types(s)
  if (s.nullable && !kinds.includes('null')) kinds.push('null')
  if (kinds.length === 0) return fc.jsonValue({ maxDepth: 2 })
  return fc.oneof(...kinds.map((kind) => kindArbitrary(doc, s, kind, opts)))
}

function kindArbitrary(
  doc: OpenApiDocument,
  s: JsonSchema,
  kind: string,
  opts: ArbitraryOptions,
): fc.Arbitrary<unknown> {
  switch (kind) {
    case 'null':
      return fc.constant(null)
    case 'boolean':
      return fc.boolean()
    case 'integer':
      return numberArbitrary(s, true)
    case 'number':
      return numberArbitrary(s, false)
    case 'string':
      return stringArbitrary(s)
    case 'array': {
      const max = Math.min(s.maxItems ?? 4, 4)
      const min = Math.min(s.minItems ?? 0, max)
      return fc.array(validArbitrary(doc, s.items ?? {}, opts), { minLength: min, maxLength: max })
    }
    case 'object': {
      const props = s.properties ?? {}
      const model: Record<string, fc.Arbitrary<unknown>> = {}
      for (const [key, prop] of Object.entries(props)) model[key] = validArbitrary(doc, prop, opts, key)
      const requiredKeys = (s.required ?? []).filter((k) => k in props)
      return fc.record(model, { requiredKeys })
    }
    default:
      return fc.constant(null)
  }
}

/** Values that break `schema`: a wrong type here or in one field, or a required field left out. */
export function wrongArbitrary(
  doc: OpenApiDocument,
  schema: JsonSchema,
  opts: ArbitraryOptions = {},
): fc.Arbitrary<unknown> {
  const s = deref(doc, schema)
  const base = validArbitrary(doc, s, opts)
  const oneFieldWrong = base.chain((value) => {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return junkValue
    const keys = Object.keys(value)
    if (keys.length === 0) return junkValue.map((junk) => ({ unexpected: junk }))
    return fc.tuple(fc.constantFrom(...keys), junkValue, fc.boolean()).map(([key, junk, drop]) => {
      const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) }
      if (drop) delete copy[key]
      else copy[key] = junk
      return copy
    })
  })
  return fc.oneof(junkValue, oneFieldWrong)
}

/** Valid values most of the time, wrong ones otherwise. */
export function mixedArbitrary(
  doc: OpenApiDocument,
  schema: JsonSchema,
  opts: ArbitraryOptions = {},
  name?: string,
): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 3, arbitrary: validArbitrary(doc, schema, opts, name) },
    { weight: 1, arbitrary: wrongArbitrary(doc, schema, opts) },
  )
}

export interface GeneratedRequest {
  method: string
  /** Path with its parameters filled in (URL-encoded) and the query string. */
  url: string
  /** The JSON body (already a value; the caller serialises it), or undefined for none. */
  body: unknown
  headers: Record<string, string>
}

function asParamString(v: unknown): string {
  if (v === null || v === undefined) return ''
  if (typeof v === 'object') return JSON.stringify(v)
  return String(v)
}

/**
 * Whole requests for one operation: each path param from its schema (or a pool of real values),
 * optional query params present or not, header params (e.g. Idempotency-Key) and the JSON body.
 */
export function requestArbitrary(
  doc: OpenApiDocument,
  op: Operation,
  opts: ArbitraryOptions = {},
): fc.Arbitrary<GeneratedRequest> {
  const pathParams = op.params.filter((p) => p.in === 'path')
  const queryParams = op.params.filter((p) => p.in === 'query')
  const headerParams = op.params.filter((p) => p.in === 'header')
  // a pool named "path.id" (or "query.page", …) is for that parameter only, not for body fields
  const paramValue = (p: OpenApiParameter) => {
    const own = opts.pools?.[`${p.in}.${p.name}`]
    const paramOpts = own ? { ...opts, pools: { ...opts.pools, [p.name]: own } } : opts
    return mixedArbitrary(doc, p.schema ?? { type: 'string' }, paramOpts, p.name)
  }

  const pathArb = fc.record(Object.fromEntries(pathParams.map((p) => [p.name, paramValue(p)])))
  const queryArb = fc.record(Object.fromEntries(queryParams.map((p) => [p.name, paramValue(p)])), {
    requiredKeys: queryParams.filter((p) => p.required).map((p) => p.name),
  })
  const headerArb = fc.record(
    Object.fromEntries(headerParams.map((p) => [p.name, validArbitrary(doc, p.schema ?? {}, opts, p.name)])),
    { requiredKeys: headerParams.filter((p) => p.required).map((p) => p.name) },
  )
  const json = op.body && /json/.test(op.body.mediaType)
  const bodyArb: fc.Arbitrary<unknown> = json
    ? op.body!.required
      ? mixedArbitrary(doc, op.body!.schema, opts)
      : fc.option(mixedArbitrary(doc, op.body!.schema, opts), { nil: undefined })
    : fc.constant(undefined)

  return fc.tuple(pathArb, queryArb, headerArb, bodyArb).map(([path, query, header, body]) => {
    let url = op.path
    for (const [k, v] of Object.entries(path)) {
      url = url.replace(`{${k}}`, encodeURIComponent(asParamString(v)) || '%20')
    }
    const qs = new URLSearchParams()
    for (const [k, v] of Object.entries(query)) {
      if (v !== undefined) qs.set(k, asParamString(v))
    }
    const headers: Record<string, string> = {}
    for (const [k, v] of Object.entries(header)) {
      // header values must be ISO-8859-1 visible text
      if (v !== undefined)
        headers[k] =
          asParamString(v)
            .replace(/[^\x20-\x7e]/g, '')
            .trim() || 'k'
    }
    const search = qs.toString()
    return { method: op.method, url: search ? `${url}?${search}` : url, body, headers }
  })
}
