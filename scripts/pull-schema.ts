// npm run gen:api — pulls the OpenAPI document (API_URL or the in-process API) into
// openapi/schema.json and generates the typed paths in openapi/schema.d.ts.
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { fetchSchema, renderSchemaFiles } from './openapi-files'

const out = (f: string) => fileURLToPath(new URL(`../openapi/${f}`, import.meta.url))
const { json, dts } = await renderSchemaFiles(await fetchSchema(process.env.API_URL || undefined))
writeFileSync(out('schema.json'), json)
writeFileSync(out('schema.d.ts'), dts)
console.log(
  `openapi/schema.json and openapi/schema.d.ts written (${Object.keys(JSON.parse(json).paths).length} paths)`,
)
