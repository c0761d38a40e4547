// The shop's one secret (JWT_SECRET), as every part of the shop finds it: from the environment, or,
// for a single demo instance without it, made once and kept in the data folder, so its workers and
// restarts share it. Production requires the variable (api/src/env.ts says so at start-up).
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'

/** Where the shop keeps its files unless DATA_DIR says otherwise. */
export const DEFAULT_DATA_DIR = './data'

export function shopSecret(fromEnv: string | undefined, dataDir: string): string {
  if (fromEnv) return fromEnv
  const file = path.join(dataDir, 'jwt-secret')
  if (existsSync(file)) return readFileSync(file, 'utf8').trim()
  mkdirSync(dataDir, { recursive: true })
  const made = randomBytes(32).toString('hex')
  writeFileSync(file, made, { mode: 0o600 })
  return made
}
