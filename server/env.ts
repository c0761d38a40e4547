import path from 'node:path'
import { z } from 'zod'

/** Process-level settings of the shop server, validated once at start-up. */
const schema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must start with postgres:// or postgresql://')
    .optional(),
  API_URL: z.url('API_URL must be an absolute http(s) URL').optional(),
  SHOP_ROLE: z.enum(['all', 'api', 'storefront']).default('all'),
  SEED_DEMO: z.enum(['0', '1']).default('1'),
})

export type ServerEnv = z.infer<typeof schema> & { dataDir: string }

export function loadServerEnv(env: NodeJS.ProcessEnv): ServerEnv {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''))
  const parsed = schema.safeParse(cleaned)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`)
    throw new Error(`Invalid environment:\n${lines.join('\n')}`)
  }
  if (parsed.data.SHOP_ROLE === 'storefront' && !parsed.data.API_URL) {
    throw new Error('Invalid environment:\n  API_URL: required when SHOP_ROLE=storefront')
  }
  return { ...parsed.data, dataDir: path.resolve(parsed.data.DATA_DIR) }
}
