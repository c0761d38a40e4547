// §5: every request wrapper rejects a required path or body parameter that is null or undefined,
// before anything is sent. Path parameters are all required (OpenAPI), so every `{name}` in the
// path template must have a value; a body is required when the contract says so, and a body given
// explicitly as null/undefined on POST, PUT or PATCH is rejected too.
import contract from '#openapi/schema.json'

interface ContractDoc {
  paths?: Record<string, Record<string, { requestBody?: { required?: boolean } } | undefined>>
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH'])
const PLACEHOLDER = /\{([^{}]+)\}/g

/** "POST /api/orders/pubg/" for every operation whose request body the contract marks required. */
function requiredBodyIndex(doc: ContractDoc): Set<string> {
  const index = new Set<string>()
  for (const [path, ops] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(ops)) {
      if (op?.requestBody?.required) index.add(`${method.toUpperCase()} ${path}`)
    }
  }
  return index
}

const contractIndex = requiredBodyIndex(contract as ContractDoc)

/** Whether the committed contract (openapi/schema.json) requires a request body for the operation. */
export function contractRequiresBody(method: string, path: string): boolean {
  return contractIndex.has(`${method.toUpperCase()} ${path}`)
}

export class RequiredParameterError extends Error {
  constructor(
    readonly parameter: string,
    readonly operation: string,
  ) {
    super(`Required parameter ${parameter} was null or undefined when calling ${operation}`)
    this.name = 'RequiredParameterError'
  }
}

export interface CallInit {
  params?: { path?: Record<string, unknown> }
  body?: unknown
}

/** Throws RequiredParameterError when a required path or body parameter is null or undefined. */
export function assertRequiredParams(
  method: string,
  path: string,
  init: CallInit | undefined,
  bodyRequired: (method: string, path: string) => boolean = contractRequiresBody,
): void {
  const operation = `${method} ${path}`
  for (const match of path.matchAll(PLACEHOLDER)) {
    const name = match[1]!
    if (init?.params?.path?.[name] == null) throw new RequiredParameterError(`path.${name}`, operation)
  }
  if (!BODY_METHODS.has(method)) return
  const bodyGiven = init !== undefined && 'body' in init
  if (init?.body == null && (bodyGiven || bodyRequired(method, path))) {
    throw new RequiredParameterError('body', operation)
  }
}
