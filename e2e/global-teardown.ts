// After the whole run: the shop's log (.cache/e2e-<port>.log, written by scripts/e2e-server.mjs)
// must hold the run's access lines and no email address at all — every email the tests typed
// (sign-ups, orders, look-ups) included (issue 19: logs leak no personal data). And every API
// exchange of the run was on the contract (issue 44): the shop's contract watch
// (api/src/lib/contract-watch.ts) wrote what it checked and found to its data folder.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { CONTRACT_WATCH_FILE, type WatchLine } from '../shared/contract-watch'
import { listOperations, type OpenApiDocument } from '../shared/openapi-operations'

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/

export default async function globalTeardown() {
  const port = Number(process.env.E2E_PORT ?? 3200)
  const file = fileURLToPath(new URL(`../.cache/e2e-${port}.log`, import.meta.url))
  // the server may still be flushing its last lines (the contract watch's counts: every second)
  await new Promise((r) => setTimeout(r, 1500))
  checkContractWatch(
    fileURLToPath(new URL(`../.cache/e2e-data-${port}/${CONTRACT_WATCH_FILE}`, import.meta.url)),
    fileURLToPath(new URL(`../.cache/e2e-contract-${port}.json`, import.meta.url)),
  )
  if (!existsSync(file)) throw new Error(`the e2e server wrote no log at ${file}`)
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean)
  const accessLines = lines.filter((l) => l.includes('"msg":"request"'))
  if (accessLines.length === 0)
    throw new Error(`the e2e server's log has no access lines: is logging broken? (${file})`)
  const leaks = lines.filter((l) => EMAIL.test(l))
  if (leaks.length > 0)
    throw new Error(
      `the shop's log holds ${leaks.length} line(s) with an email address (${file}):\n${leaks.slice(0, 5).join('\n')}`,
    )
}

/**
 * Fails the run on any exchange off the contract, or when the watch checked nothing; prints what
 * was checked and keeps it in `summaryFile`.
 */
export function checkContractWatch(file: string, summaryFile: string): void {
  if (!existsSync(file)) throw new Error(`the shop's contract watch wrote nothing at ${file}: is it mounted?`)
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as WatchLine)
  const counts = new Map<number, Extract<WatchLine, { kind: 'counts' }>>()
  const problems: Extract<WatchLine, { kind: 'problem' }>[] = []
  for (const line of lines) {
    if (line.kind === 'counts') counts.set(line.pid, line)
    else problems.push(line)
  }
  const doc = JSON.parse(
    readFileSync(new URL('../openapi/schema.json', import.meta.url), 'utf8'),
  ) as OpenApiDocument
  const all = listOperations(doc)
  const covered = new Set([...counts.values()].flatMap((c) => c.operations))
  const summary = {
    requests: [...counts.values()].reduce((n, c) => n + c.requests, 0),
    requestsOffContract: [...counts.values()].reduce((n, c) => n + c.offContract, 0),
    operations: `${covered.size} of ${all.length}`,
    notCovered: all.map((o) => o.name).filter((n) => !covered.has(n)),
    problems,
  }
  writeFileSync(summaryFile, JSON.stringify(summary, null, 2))
  console.log(
    `contract (e2e): ${summary.requests} API requests checked, ${summary.operations} operations, ${summary.requestsOffContract} requests off the contract, ${problems.length} problems`,
  )
  if (summary.requests === 0) throw new Error(`the shop's contract watch checked no request (${file})`)
  if (problems.length > 0) {
    const shown = problems
      .slice(0, 10)
      .map((p) => `  ${p.problem}: ${p.method} ${p.url} → ${p.status}: ${p.detail.slice(0, 300)}`)
    throw new Error(
      `${problems.length} API exchange(s) of the e2e run are off the contract (openapi/schema.json):\n${shown.join('\n')}`,
    )
  }
}
