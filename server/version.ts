import { readFileSync } from 'node:fs'
import path from 'node:path'

/** Where a deploy (or a test) announces the newest build: `<DATA_DIR>/latest-version`. */
export function latestVersionFile(dataDir: string): string {
  return process.env.LATEST_VERSION_FILE ?? path.join(dataDir, 'latest-version')
}

/** The announced build version, or null when nothing is announced. Read per request: it is tiny. */
export function readLatestVersion(dataDir: string): string | null {
  try {
    const value = readFileSync(latestVersionFile(dataDir), 'utf8').trim()
    return /^[\w.-]{1,64}$/.test(value) ? value : null
  } catch {
    return null
  }
}
