// The log writes a turn's lines together at the end of the turn (api/src/lib/log.ts): nothing
// pending is lost when the process exits, by process.exit or by a crash, and order is kept.
import { spawn, spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))

/** Runs `code` (an ES module importing the log) in a fresh node process; its stdout as JSON lines. */
function runWithLog(code: string) {
  const out = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'info', NODE_ENV: 'production' },
    encoding: 'utf8',
    timeout: 30_000,
  })
  const lines = out.stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
  return { status: out.status, lines, stderr: out.stderr }
}

describe('log lines at exit', () => {
  it('writes the lines of the last turn when the process calls exit', () => {
    const run = runWithLog(`
      import { accessLogger, log } from '#api/lib/log'
      log.info({ step: 1 }, 'first')
      accessLogger.info({ method: 'GET', path: '/x', status: 200 }, 'request')
      log.warn('last words')
      process.exit(3)
    `)
    expect(run.status).toBe(3)
    expect(run.lines.map((l) => l.msg)).toEqual(['first', 'request', 'last words'])
    expect(run.lines[1]).toMatchObject({ level: 'info', method: 'GET', path: '/x', status: 200 })
  })

  it('writes the line logged just before a crash', () => {
    const run = runWithLog(`
      import { log } from '#api/lib/log'
      log.error({ orderId: 7 }, 'about to fail')
      throw new Error('boom')
    `)
    expect(run.status).toBe(1)
    expect(run.stderr).toContain('boom')
    expect(run.lines).toEqual([expect.objectContaining({ msg: 'about to fail', orderId: 7 })])
  })

  it('keeps every line, in order, when a turn writes more than the sink holds', () => {
    const run = runWithLog(`
      import { accessLogger } from '#api/lib/log'
      for (let i = 0; i < 3000; i++) accessLogger.info({ n: i, path: '/products/' + i }, 'request')
      process.exit(0)
    `)
    expect(run.status).toBe(0)
    expect(run.lines.map((l) => l.n)).toEqual(Array.from({ length: 3000 }, (_, i) => i))
  })

  it('writes what an exit handler registered later logs', () => {
    const run = runWithLog(`
      import { log } from '#api/lib/log'
      process.on('exit', (code) => log.info({ code }, 'said on the way out'))
      log.info('before')
    `)
    expect(run.lines.map((l) => l.msg)).toEqual(['before', 'said on the way out'])
  })
})

describe('log lines of several processes on one stdout pipe', () => {
  it('never mix within a line, even when the reader falls behind for a while', async () => {
    // two processes write 3,000 access lines each, in turns of 50, to the stdout pipe they share
    // (as the supervisor's workers do); the reader keeps falling behind, so the pipe fills and lines wait
    const writer = `
      import { accessLogger } from '#api/lib/log'
      const who = process.argv.at(-1)
      let n = 0
      const turn = () => {
        for (let i = 0; i < 50; i++, n++)
          accessLogger.info({ who, n, path: '/products/' + 'p'.repeat((n * 37) % 900) }, 'request')
        if (n < 3000) setImmediate(turn)
      }
      turn()
    `
    const parent = `
      import { spawn } from 'node:child_process'
      const code = ${JSON.stringify(writer)}
      for (const who of ['a', 'b'])
        spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code, who], { stdio: 'inherit' })
    `
    const child = spawn(process.execPath, ['--input-type=module', '-e', parent], {
      cwd: root,
      env: { ...process.env, LOG_LEVEL: 'info', NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    child.stdout.pause()
    const chunks: Buffer[] = []
    child.stdout.on('data', (d: Buffer) => chunks.push(d))
    // the reader stops and starts again and again, so writes keep meeting a full pipe
    const ended = new Promise((r) => child.stdout.on('end', r))
    const stutter = setInterval(() => {
      if (child.stdout.isPaused()) child.stdout.resume()
      else child.stdout.pause()
    }, 40)
    await ended
    clearInterval(stutter)
    const text = Buffer.concat(chunks).toString()
    const lines = text.split('\n').filter(Boolean)
    const parsed = lines.map((l) => {
      try {
        return JSON.parse(l) as { who: string; n: number }
      } catch {
        throw new Error(`a mixed line: ${l.slice(0, 200)}`)
      }
    })
    for (const who of ['a', 'b']) {
      const ns = parsed.filter((l) => l.who === who).map((l) => l.n)
      expect(ns).toEqual(Array.from({ length: 3000 }, (_, i) => i))
    }
  }, 60_000)
})
