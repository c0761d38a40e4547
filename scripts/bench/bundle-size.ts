// npx tsx scripts/bench/bundle-size.ts [--budget 95] — first-load JS per route (gzip -9), as a table.
// Exits 1 when a route is over the budget (KB = 1024 bytes).
import { fileURLToPath } from 'node:url'
import { measureRoutes } from './first-load'

export const BUDGET_KB = 95

export function bundleSizeTable(clientDir: string, budgetKb = BUDGET_KB) {
  const rows = measureRoutes(clientDir)
  const kb = (b: number) => (b / 1024).toFixed(1)
  const width = Math.max(5, ...rows.map((r) => r.route.length))
  const lines = [
    `${'route'.padEnd(width)}  files  raw KB  gzip KB  budget`,
    ...rows.map(
      (r) =>
        `${r.route.padEnd(width)}  ${String(r.files.length).padStart(5)}  ${kb(r.rawBytes).padStart(6)}  ${kb(r.gzipBytes).padStart(7)}  ${r.gzipBytes <= budgetKb * 1024 ? 'ok' : `OVER ${budgetKb}`}`,
    ),
  ]
  return { rows, text: lines.join('\n'), over: rows.filter((r) => r.gzipBytes > budgetKb * 1024) }
}

/** For `npm run bench` (scripts/bench/run.ts): KB gzipped per route of the current build. */
export async function firstLoadSizes(
  clientDir = fileURLToPath(new URL('../../build/client', import.meta.url)),
): Promise<Array<{ route: string; kb: number }>> {
  return measureRoutes(clientDir).map((r) => ({ route: r.route, kb: r.gzipBytes / 1024 }))
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const i = process.argv.indexOf('--budget')
  const budget = i > 0 ? Number(process.argv[i + 1]) : BUDGET_KB
  const clientDir = fileURLToPath(new URL('../../build/client', import.meta.url))
  const { text, over } = bundleSizeTable(clientDir, budget)
  console.log(`First-load JavaScript per route (gzip -9, budget ${budget} KB)\n${text}`)
  if (over.length > 0) process.exit(1)
}
