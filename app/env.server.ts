import { z } from 'zod'

/**
 * The storefront's own settings, read from the environment and validated once, when the server
 * build is first imported: a bad value stops start-up with a message naming the variable.
 * (Process-level settings such as PORT and API_URL live in server/env.ts.)
 */
const schema = z.object({
  API_TIMEOUT_MS: z.coerce
    .number({ error: 'API_TIMEOUT_MS must be a number of milliseconds' })
    .int('API_TIMEOUT_MS must be a whole number of milliseconds')
    .min(1, 'API_TIMEOUT_MS must be at least 1 ms')
    .max(600_000, 'API_TIMEOUT_MS must be at most 600000 ms (10 minutes)')
    .default(30_000),
})

/** The storefront settings' schema, for the settings documentation test. */
export const storefrontSettingsSchema = schema

export type StorefrontEnv = z.infer<typeof schema>

export function loadStorefrontEnv(env: Record<string, string | undefined>): StorefrontEnv {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''))
  const parsed = schema.safeParse(cleaned)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`)
    throw new Error(`Invalid storefront environment:\n${lines.join('\n')}`)
  }
  return parsed.data
}

export const storefrontEnv: StorefrontEnv = loadStorefrontEnv(process.env)
