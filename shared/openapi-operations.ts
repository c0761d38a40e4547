// The contract's operations as plain data (openapi/schema.json read as JSON): which operations a
// document has, with their parameters, body and responses. Shared by the tests' contract checker
// and arbitraries (tests/helpers/) and the e2e run's contract watch (shared/contract-check.ts).
export type JsonSchema = {
  $ref?: string
  type?: string | string[]
  enum?: unknown[]
  const?: unknown
  format?: string
  pattern?: string
  oneOf?: JsonSchema[]
  anyOf?: JsonSchema[]
  allOf?: JsonSchema[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  additionalProperties?: boolean | JsonSchema
  items?: JsonSchema
  minItems?: number
  maxItems?: number
  minLength?: number
  maxLength?: number
  minimum?: number
  maximum?: number
  exclusiveMinimum?: number
  exclusiveMaximum?: number
  nullable?: boolean
  default?: unknown
  [k: string]: unknown
}

export interface OpenApiParameter {
  name: string
  in: 'path' | 'query' | 'header' | 'cookie'
  required?: boolean
  schema?: JsonSchema
}

interface OpenApiOperationObject {
  operationId?: string
  parameters?: OpenApiParameter[]
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> }
  responses?: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperationObject>>
  components?: { schemas?: Record<string, JsonSchema> }
}

export interface Operation {
  method: string
  path: string
  /** "POST /api/orders/pubg/" */
  name: string
  params: OpenApiParameter[]
  /** The request body's media type and schema, when the operation takes one. */
  body: { mediaType: string; required: boolean; schema: JsonSchema } | null
  responses: OpenApiOperationObject['responses'] & object
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete']

/** Every operation of the document, in document order. */
export function listOperations(doc: OpenApiDocument): Operation[] {
  const out: Operation[] = []
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method]
      if (!op) continue
      const content = op.requestBody?.content ?? {}
      const mediaType = Object.keys(content)[0]
      out.push({
        method: method.toUpperCase(),
        path,
        name: `${method.toUpperCase()} ${path}`,
        params: op.parameters ?? [],
        body: mediaType
          ? {
              mediaType,
              required: op.requestBody?.required ?? false,
              schema: content[mediaType]?.schema ?? {},
            }
          : null,
        responses: op.responses ?? {},
      })
    }
  }
  return out
}
