// Issue 44: every text a client sends has a length the contract publishes (from the zod schema the
// server validates with), so every JSON body has a finite bound its operation's body limit can fit;
// and the 503 the API answers while the database is away is listed on every operation.
import { describe, expect, it } from 'vitest'
import { jsonBound } from '#api/lib/body-limits'
import { contractDoc, contractOperations } from '#tests/helpers/contract'
import type { JsonSchema } from '#tests/helpers/openapi-arbitrary'

/** Strings with no maxLength under `schema` (uploads, `format: binary`, are bounded in bytes). */
function unbounded(schema: JsonSchema | undefined, where: string, seen = new Set<string>()): string[] {
  if (!schema || typeof schema !== 'object') return []
  if (schema.$ref) {
    const name = schema.$ref.replace('#/components/schemas/', '')
    if (seen.has(name)) return []
    seen.add(name)
    return unbounded(contractDoc.components?.schemas?.[name], where, seen)
  }
  const out: string[] = []
  for (const alt of [...(schema.oneOf ?? []), ...(schema.anyOf ?? []), ...(schema.allOf ?? [])])
    out.push(...unbounded(alt, where, seen))
  const types = Array.isArray(schema.type) ? schema.type : [schema.type]
  if (
    types.includes('string') &&
    schema.maxLength === undefined &&
    !schema.enum &&
    schema.const === undefined &&
    schema.format !== 'binary'
  )
    out.push(where)
  for (const [k, v] of Object.entries(schema.properties ?? {}))
    out.push(...unbounded(v, `${where}.${k}`, seen))
  if (schema.items) out.push(...unbounded(schema.items, `${where}[]`, seen))
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object')
    out.push(...unbounded(schema.additionalProperties, `${where}{}`, seen))
  return out
}

describe('limits the contract publishes', () => {
  it('every string of a path, query or body has a maxLength', () => {
    const found: string[] = []
    for (const op of contractOperations) {
      for (const p of op.params)
        if (p.in !== 'header') found.push(...unbounded(p.schema, `${op.name} ${p.name}`))
      const content = (contractDoc.paths[op.path]?.[op.method.toLowerCase()]?.requestBody?.content ??
        {}) as Record<string, { schema?: JsonSchema }>
      for (const [type, c] of Object.entries(content))
        found.push(...unbounded(c.schema, `${op.name} (${type})`))
    }
    expect(found).toEqual([])
  })

  it('every JSON body has a finite bound', () => {
    const endless = contractOperations
      .filter((op) => op.body?.mediaType === 'application/json')
      .filter((op) => !Number.isFinite(jsonBound(op.body!.schema as never, contractDoc as never)))
      .map((op) => op.name)
    expect(endless).toEqual([])
  })

  it('every operation lists the 503 of a database that is away, with Retry-After', () => {
    const missing = contractOperations.filter((op) => !op.responses['503']).map((op) => op.name)
    expect(missing).toEqual([])
    const orders = contractOperations.find((op) => op.name === 'POST /api/orders/pubg/')!
    expect(JSON.stringify(orders.responses['503'])).toContain('Retry-After')
  })
})
