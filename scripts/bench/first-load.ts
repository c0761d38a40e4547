// First-load JavaScript of every route, from the built client: the files a browser fetches before
// the page is interactive (entry + every route of the branch, with their static imports), gzipped.
// Read from Remix's own client manifest (build/client/assets/manifest-*.js): it lists exactly the
// modules that <Scripts> preloads. (Vite's .vite/manifest.json is deleted by the Remix build.)
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'

export interface RemixClientManifest {
  version: string
  entry: { module: string; imports: string[] }
  routes: Record<
    string,
    { id: string; parentId?: string; path?: string; index?: boolean; module: string; imports?: string[] }
  >
}

export interface RouteWeight {
  route: string
  files: string[]
  /** Sum of each file's gzipped size, in bytes. */
  gzipBytes: number
  rawBytes: number
}

export function readClientManifest(clientDir: string): RemixClientManifest {
  const assets = path.join(clientDir, 'assets')
  const file = readdirSync(assets).find((f) => /^manifest-[\w-]+\.js$/.test(f))
  if (!file) throw new Error(`No Remix client manifest in ${assets}: run \`npm run build\` first`)
  const text = readFileSync(path.join(assets, file), 'utf8')
  const json = text.replace(/^window\.__remixManifest\s*=\s*/, '').replace(/;\s*$/, '')
  return JSON.parse(json) as RemixClientManifest
}

/** The static import graph of a route: entry, then each route from the root down to it. */
export function firstLoadFiles(manifest: RemixClientManifest, routeId: string): string[] {
  const branch: string[] = []
  for (let id: string | undefined = routeId; id; id = manifest.routes[id]?.parentId) branch.unshift(id)
  const files = [manifest.entry.module, ...manifest.entry.imports]
  for (const id of branch) {
    const route = manifest.routes[id]
    if (route) files.push(route.module, ...(route.imports ?? []))
  }
  return [...new Set(files)]
}

export function measureRoutes(clientDir: string): RouteWeight[] {
  const manifest = readClientManifest(clientDir)
  const sizes = new Map<string, { raw: number; gzip: number }>()
  const size = (url: string) => {
    let s = sizes.get(url)
    if (!s) {
      const content = readFileSync(path.join(clientDir, url.replace(/^\//, '')))
      s = { raw: content.length, gzip: gzipSync(content, { level: 9 }).length }
      sizes.set(url, s)
    }
    return s
  }
  return Object.keys(manifest.routes)
    .filter((id) => id !== 'root')
    .sort()
    .map((route) => {
      const files = firstLoadFiles(manifest, route)
      return {
        route,
        files,
        gzipBytes: files.reduce((sum, f) => sum + size(f).gzip, 0),
        rawBytes: files.reduce((sum, f) => sum + size(f).raw, 0),
      }
    })
}
