// Vitest global setup: empties .cache/contract/ before the run and, after it, adds up what the API
// tests' exchanges looked like against the contract (tests/helpers/contract-recorder.ts): requests,
// operations covered out of all, requests the contract would not allow, and findings. Written to
// .cache/contract/summary.json and printed; an answer off the contract already failed its test.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { contractOperations } from './contract'

const DIR = path.join(process.cwd(), '.cache', 'contract')

// Vitest runs this once per project (api-pglite, api-postgres, …) in its one main process, and a
// project's setup may come after another project's files have written their traffic: only the
// first setup of the run empties the folder, and only the last teardown adds it up.
const RUN = 'CONTRACT_REPORT_SETUPS'

export default function setup() {
  const open = Number(process.env[RUN] ?? 0)
  if (open === 0) rmSync(DIR, { recursive: true, force: true })
  process.env[RUN] = String(open + 1)
  return () => {
    const left = Number(process.env[RUN] ?? 1) - 1
    process.env[RUN] = String(left)
    if (left > 0 || !existsSync(DIR)) return
    const summary: Record<string, unknown> = {}
    for (const file of readdirSync(DIR).filter((f) => /^traffic-.*\.jsonl$/.test(f))) {
      const lines = readFileSync(path.join(DIR, file), 'utf8').trim().split('\n').filter(Boolean)
      const rows = lines.map(
        (l) =>
          JSON.parse(l) as {
            requests: number
            invalidRequests: number
            operations: string[]
            findings: string[]
          },
      )
      const covered = new Set(rows.flatMap((r) => r.operations))
      const project = file.replace(/^traffic-|\.jsonl$/g, '')
      summary[project] = {
        files: rows.length,
        requests: rows.reduce((n, r) => n + r.requests, 0),
        requestsOffContract: rows.reduce((n, r) => n + r.invalidRequests, 0),
        operations: `${covered.size} of ${contractOperations.length}`,
        notCovered: contractOperations.map((o) => o.name).filter((n) => !covered.has(n)),
        findings: rows.flatMap((r) => r.findings),
      }
    }
    writeFileSync(path.join(DIR, 'summary.json'), JSON.stringify(summary, null, 2))
    for (const [project, s] of Object.entries(summary) as Array<[string, Record<string, unknown>]>)
      console.log(
        `contract (${project}): ${s.requests} requests checked, ${s.operations} operations, ${s.requestsOffContract} requests off the contract, ${(s.findings as string[]).length} findings`,
      )
  }
}
