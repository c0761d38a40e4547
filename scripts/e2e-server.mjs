// The shop as the e2e suite drives it: the existing build, a fresh embedded database.
import { rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const dataDir = fileURLToPath(new URL('../.cache/e2e-data', import.meta.url))
rmSync(dataDir, { recursive: true, force: true })
process.env.DATA_DIR = dataDir
process.env.SKIP_BUILD = '1'
await import('./start.mjs')
