// npx tsx scripts/bench/log-sink.ts [rounds] — the shop's log output (api/src/lib/log-output.ts)
// against pino's own destination (sonic-boom), in the same run (issue 35, decision 097).
//
// Each variant runs in its own child process whose stdout is a pipe this process reads, as the
// supervisor reads its workers. The child writes access-line-like lines through pino, LINES_PER_TURN
// per event-loop turn (the lines of a few requests), until LINES are written and flushed. It reports
// the wall time and the process CPU time (libuv's threads included) on stderr; the parent checks
// that every line arrived. Rounds alternate the variants so a busy machine hurts them alike.
import { spawn } from 'node:child_process'

const VARIANTS = ['shop-sink', 'pino-destination-async', 'pino-destination-sync'] as const
type Variant = (typeof VARIANTS)[number]
const LINES = 200_000
const LINES_PER_TURN = 8

async function child(variant: Variant) {
  const pino = (await import('pino')).default
  const { createFdWriter, createLineSink } = await import('#api/lib/log-output')
  let done: () => Promise<void>
  let stream: import('pino').DestinationStream
  if (variant === 'shop-sink') {
    // as stdoutLineSink builds it, with the writer at hand to wait until its backlog is written
    void process.stdout
    // no bound on waiting lines here (the shop drops beyond 16 MB): sonic-boom keeps them all too
    const out = createFdWriter(1, { maxBacklog: Number.POSITIVE_INFINITY })
    const sink = createLineSink(out.write)
    stream = sink
    done = async () => {
      sink.end()
      while (out.waiting() > 0) await new Promise((r) => setTimeout(r, 1))
    }
  } else {
    const dest = pino.destination({ dest: 1, sync: variant === 'pino-destination-sync' })
    stream = dest
    done = () =>
      new Promise((resolve) => {
        dest.on('finish', () => resolve())
        dest.end()
      })
  }
  const log = pino({ base: { pid: process.pid }, messageKey: 'msg' }, stream)
  const t0 = performance.now()
  const cpu0 = process.cpuUsage()
  let n = 0
  await new Promise<void>((resolve) => {
    const turn = () => {
      for (let i = 0; i < LINES_PER_TURN && n < LINES; i++, n++)
        log.info(
          { reqId: `req-${n}`, method: 'GET', path: '/api/games/?limit=20', status: 200, durationMs: 1.234 },
          'request',
        )
      if (n < LINES) setImmediate(turn)
      else resolve()
    }
    turn()
  })
  await done()
  const cpu = process.cpuUsage(cpu0)
  const ms = performance.now() - t0
  process.stderr.write(`${JSON.stringify({ ms, cpuUs: cpu.user + cpu.system })}\n`)
}

function runChild(variant: Variant): Promise<{ linesPerS: number; cpuUsPerLine: number }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, '--child', variant], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let lines = 0
    let err = ''
    proc.stdout.on('data', (b: Buffer) => {
      for (let i = b.indexOf(10); i >= 0; i = b.indexOf(10, i + 1)) lines++
    })
    proc.stderr.on('data', (b: Buffer) => {
      err += b
    })
    proc.on('error', reject)
    proc.on('close', (code) => {
      const last = err.trim().split('\n').at(-1) ?? ''
      if (code !== 0 || lines !== LINES)
        return reject(new Error(`${variant}: exit ${code}, ${lines} lines\n${err}`))
      const { ms, cpuUs } = JSON.parse(last) as { ms: number; cpuUs: number }
      resolve({
        linesPerS: Math.round((LINES / ms) * 1000),
        cpuUsPerLine: Number((cpuUs / LINES).toFixed(2)),
      })
    })
  })
}

async function main() {
  const rounds = Number(process.argv[2] ?? 5)
  const results = new Map<Variant, Array<{ linesPerS: number; cpuUsPerLine: number }>>()
  for (let r = 0; r < rounds; r++)
    for (const v of r % 2 === 0 ? VARIANTS : [...VARIANTS].reverse()) {
      const res = await runChild(v)
      results.set(v, [...(results.get(v) ?? []), res])
    }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
  console.log(`${LINES} lines, ${LINES_PER_TURN} per event-loop turn, stdout a pipe; ${rounds} rounds`)
  for (const [v, rs] of results)
    console.log(
      `${v.padEnd(24)} lines/s median ${median(rs.map((r) => r.linesPerS))} (${rs.map((r) => r.linesPerS).join(', ')})` +
        `  CPU µs/line median ${median(rs.map((r) => r.cpuUsPerLine))}`,
    )
}

if (process.argv[2] === '--child') await child(process.argv[3] as Variant)
else await main()
