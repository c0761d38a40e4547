// The folder of the shop's package.json, found from this module upwards: the same answer whether
// the code runs from its TypeScript source or compiled into build/shop/ (decision 076).
import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

function findRoot(from: string): string {
  let dir = from
  while (!existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir)
    if (up === dir) throw new Error(`no package.json above ${from}`)
    dir = up
  }
  return dir
}

export const projectRoot = findRoot(path.dirname(fileURLToPath(import.meta.url)))
