import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { fetchSchema, renderSchemaFiles } from '../../scripts/openapi-files'

const committed = (f: string) =>
  readFileSync(fileURLToPath(new URL(`../../openapi/${f}`, import.meta.url)), 'utf8')

describe('contract drift', () => {
  it('openapi/schema.json and schema.d.ts match what the API serves (run npm run gen:api)', async () => {
    const { json, dts } = await renderSchemaFiles(await fetchSchema())
    expect(json).toBe(committed('schema.json'))
    expect(dts).toBe(committed('schema.d.ts'))
  })
})
