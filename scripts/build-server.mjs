// `npm run build` (after the storefront) and `npm start` (when the sources are newer): compiles the
// shop's server (server/ + api/src + what they import from app/ and shared/) into plain JavaScript
// in build/shop/, so production runs no TypeScript loader (decision 076). Packages in node_modules
// stay imports; the demo seeder is its own chunk, read only by a process that seeds.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
export const shopBuildDir = path.join(root, 'build/shop')
const SOURCES = ['server', 'api/src', 'shared', 'app/lib', 'locales']

function newestMtime(dir) {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs)
  }
  return newest
}

/** True when build/shop is missing or older than a source it is compiled from. */
export function shopBuildStale() {
  const entry = path.join(shopBuildDir, 'main.js')
  if (!existsSync(entry)) return true
  const built = statSync(entry).mtimeMs
  const sources = SOURCES.map((d) => path.join(root, d))
    .filter((d) => existsSync(d))
    .map((d) => newestMtime(d))
  sources.push(statSync(path.join(root, 'package.json')).mtimeMs)
  return Math.max(...sources) > built
}

/**
 * A package import stays an import when Node itself can resolve it from build/shop/ (same
 * node_modules); one only tsx resolved (a folder or extensionless path inside a CommonJS package,
 * such as `nodemailer/lib/addressparser`) is compiled in instead.
 */
const nodeResolvableExternal = {
  name: 'node-resolvable-external',
  setup(b) {
    b.onResolve({ filter: /^[^./#]/ }, (args) => {
      if (args.path.startsWith('node:')) return { external: true }
      // decided from the files, not by a resolver (a loader such as tsx would resolve more)
      const parts = args.path.split('/')
      const name = parts.slice(0, args.path.startsWith('@') ? 2 : 1).join('/')
      const subpath = parts.slice(name.split('/').length).join('/')
      const pkgDir = path.join(root, 'node_modules', name)
      if (!subpath || !existsSync(path.join(pkgDir, 'package.json'))) return { external: true }
      if (JSON.parse(readFileSync(path.join(pkgDir, 'package.json'), 'utf8')).exports)
        return { external: true }
      const file = path.join(pkgDir, subpath)
      return existsSync(file) && statSync(file).isFile() ? { external: true } : undefined
    })
  },
}

/** Compiles into a fresh folder, then swaps it in (a process starting meanwhile reads a whole build). */
export async function buildShopServer() {
  // a dev tool: a release installed with `npm ci --omit=dev` has no esbuild and never gets here
  const { build } = await import('esbuild')
  const started = performance.now()
  const tmp = `${shopBuildDir}.${process.pid}.tmp`
  rmSync(tmp, { recursive: true, force: true })
  mkdirSync(tmp, { recursive: true })
  await build({
    absWorkingDir: root,
    entryPoints: { main: 'server/main.ts', supervisor: 'server/supervisor.ts' },
    outdir: tmp,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    plugins: [nodeResolvableExternal],
    sourcemap: true,
    // `#api/…`, `#app/…` are this package's own imports (package.json "imports"): compiled in
    alias: { '#api': './api/src', '#app': './app', '#openapi': './openapi' },
    jsx: 'automatic',
    legalComments: 'none',
    // CommonJS compiled in (see the plugin below) may require() Node's own modules
    banner: {
      js: "import { createRequire as __shopRequire } from 'node:module'; const require = __shopRequire(import.meta.url);",
    },
    chunkNames: 'chunks/[name]-[hash]',
    logLevel: 'warning',
  })
  const old = `${shopBuildDir}.${process.pid}.old`
  if (existsSync(shopBuildDir)) renameSync(shopBuildDir, old)
  renameSync(tmp, shopBuildDir)
  rmSync(old, { recursive: true, force: true })
  return Math.round(performance.now() - started)
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const ms = await buildShopServer()
  console.log(`Compiled the shop server into build/shop/ (${ms} ms)`)
}
