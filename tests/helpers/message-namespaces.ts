// The message keys a module can show: every string literal that starts with "<namespace>." in the
// module and in what it imports (a template literal counts up to its first `${`), server-only
// modules (*.server.ts, whose texts are made with the whole dictionary) left out.
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'

const EXTENSIONS = ['', '.tsx', '.ts', '/index.tsx', '/index.ts']

function resolveImport(from: string, spec: string, root: string): string | null {
  let base: string
  if (spec.startsWith('#app/')) base = path.join(root, 'app', spec.slice(5))
  else if (spec.startsWith('.')) base = path.resolve(path.dirname(from), spec)
  else return null
  for (const ext of EXTENSIONS) {
    const file = base + ext
    if (existsSync(file) && /\.tsx?$/.test(file)) return file
  }
  return null
}

export function messageKeysUsedBy(entry: string, namespaces: ReadonlySet<string>, root: string): Set<string> {
  const found = new Set<string>()
  const seen = new Set<string>()
  const queue = [entry]
  while (queue.length > 0) {
    const file = queue.pop()!
    if (seen.has(file)) continue
    seen.add(file)
    const source = readFileSync(file, 'utf8')
    // the namespace table names the key paths it ships; it shows none of them
    const showsMessages = !file.endsWith(`${path.sep}i18n${path.sep}namespaces.ts`)
    for (const m of showsMessages
      ? source.matchAll(/['"`]([a-z_]+)((?:\.[A-Za-z0-9_]+)+)\.?(?=['"`$])/g)
      : [])
      if (namespaces.has(m[1]!)) found.add(m[1]! + m[2]!)
    // a type-only import brings no code, so no text to show (gift-purchase-form.tsx's
    // `import type { RootLoaderData } from '#app/root'` is not the root layout)
    const code = source.replace(/(?:import|export)\s+type\s+[^;'"]*?from\s+['"][^'"]+['"]/g, '')
    for (const m of code.matchAll(/(?:from\s+|import\(\s*)['"]([^'"]+)['"]/g)) {
      const target = resolveImport(file, m[1]!, root)
      if (target && !/\.server\.tsx?$/.test(target)) queue.push(target)
    }
  }
  return found
}

/** The keys of `keys` that none of the shipped key paths covers. */
export function uncovered(keys: Iterable<string>, shipped: readonly string[]): string[] {
  return [...keys].filter((k) => !shipped.some((p) => k === p || k.startsWith(`${p}.`))).sort()
}
