// Settings in a file (issue 48, decision 132): `npm start` and the owner's scripts read `.env` in the
// shop's folder, or the file ENV_FILE names, with Node's own parser (util.parseEnv, no dependency).
// A variable already in the process environment wins over the file; an empty value (`KEY=`) in the
// file counts as not set, so a copied .env.example with blanks changes nothing.
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseEnv } from 'node:util'

const shopDir = fileURLToPath(new URL('..', import.meta.url))

/**
 * Reads the settings file into `env` (without overwriting). Returns the file read and the names it
 * set, or null when there is no ENV_FILE and no `.env`. Throws with the file's name when ENV_FILE
 * names a file that cannot be read.
 * @param {Record<string, string | undefined>} [env]
 * @param {string} [dir]
 */
export function loadEnvFile(env = process.env, dir = shopDir) {
  const named = env.ENV_FILE
  const file = named ? path.resolve(named) : path.join(dir, '.env')
  if (!named && !existsSync(file)) return null
  let text
  try {
    text = readFileSync(file, 'utf8')
  } catch (e) {
    throw new Error(`ENV_FILE: cannot read ${file} (${e.code ?? e.message})`)
  }
  const set = []
  for (const [name, value] of Object.entries(parseEnv(text))) {
    if (env[name] !== undefined || value === '') continue
    env[name] = value
    set.push(name)
  }
  return { file, set }
}

/** For scripts: load or stop with the reason (exit 2, the usage-error code of the owner's scripts). */
export function loadEnvFileOrExit() {
  try {
    return loadEnvFile()
  } catch (e) {
    console.error(e.message)
    process.exit(2)
  }
}
