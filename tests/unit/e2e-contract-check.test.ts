// Issue 44: the e2e run fails when the shop's contract watch saw an exchange off the contract, or
// saw nothing at all (e2e/global-teardown.ts over the watch's file, api/src/lib/contract-watch.ts).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { WatchLine } from '../../shared/contract-watch'
import { checkContractWatch } from '../../e2e/global-teardown'

function watchFile(lines: WatchLine[]): { file: string; summary: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'watch-'))
  const file = path.join(dir, 'contract-watch.jsonl')
  writeFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(''))
  return { file, summary: path.join(dir, 'summary.json') }
}

const counts = (pid: number, requests: number, operations: string[]): WatchLine => ({
  kind: 'counts',
  pid,
  requests,
  offContract: 0,
  operations,
})

describe('the e2e run’s contract check', () => {
  it('passes a clean run and adds up the last counts of every process', () => {
    const { file, summary } = watchFile([
      counts(1, 3, ['GET /api/games/']),
      counts(1, 10, ['GET /api/games/', 'POST /api/orders/pubg/']),
      counts(2, 5, ['GET /api/shop/']),
    ])
    checkContractWatch(file, summary)
    const s = JSON.parse(readFileSync(summary, 'utf8'))
    expect(s.requests).toBe(15)
    expect(s.operations).toMatch(/^3 of \d+$/)
  })

  it('fails on an answer off the contract, naming it', () => {
    const { file, summary } = watchFile([
      counts(1, 2, ['GET /api/games/']),
      {
        kind: 'problem',
        problem: 'answer',
        method: 'GET',
        url: '/api/games/',
        status: 418,
        detail: 'undeclared status 418',
      },
    ])
    expect(() => checkContractWatch(file, summary)).toThrow(/off the contract[\s\S]*GET \/api\/games\/ → 418/)
  })

  it('fails when the watch wrote nothing or checked nothing', () => {
    expect(() => checkContractWatch('/nonexistent/contract-watch.jsonl', '/tmp/x.json')).toThrow(
      /wrote nothing/,
    )
    const { file, summary } = watchFile([])
    expect(() => checkContractWatch(file, summary)).toThrow(/checked no request/)
  })
})
