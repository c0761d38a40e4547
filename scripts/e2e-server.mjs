// The shop as the e2e suite drives it: the existing build, a fresh embedded database.
import { rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

// one data folder per port, so parallel runs on other ports do not wipe each other's database
const dataDir = fileURLToPath(new URL(`../.cache/e2e-data-${process.env.PORT ?? 3200}`, import.meta.url))
rmSync(dataDir, { recursive: true, force: true })
process.env.DATA_DIR = dataDir
process.env.SKIP_BUILD = '1'
await import('./start.mjs')
