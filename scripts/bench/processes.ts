import { type ChildProcess, spawn } from 'node:child_process'

export interface Running {
  url: string
  pid: number
  stop(): Promise<void>
}

// whatever the bench started ends with it, also when it fails half-way
const started = new Set<ChildProcess>()
process.on('exit', () => {
  for (const child of started) if (child.exitCode === null) child.kill('SIGTERM')
})

const BENCH_LIMITS = {
  ORDER_LIMIT_PER_ADDRESS: '100000',
  ORDER_LIMIT_PER_EMAIL: '100000',
  PAYMENT_LIMIT_PER_ADDRESS: '100000',
  PAYMENT_LIMIT_PER_EMAIL: '100000',
}

/** Starts a command and waits until `readyUrl` answers (any HTTP status). */
export async function startProcess(
  cmd: string,
  args: string[],
  opts: { env?: Record<string, string>; readyUrl: string; url: string; timeoutMs?: number },
): Promise<Running> {
  const child: ChildProcess = spawn(cmd, args, {
    // the order loads send many orders of one email from one address: the fraud limits (issue 34)
    // would answer 429 after a few, so the bench lifts them
    env: { ...process.env, ...BENCH_LIMITS, ...opts.env },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  started.add(child)
  child.once('exit', () => started.delete(child))
  const deadline = Date.now() + (opts.timeoutMs ?? 120_000)
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${cmd} ${args.join(' ')} exited with ${child.exitCode}`)
    try {
      await fetch(opts.readyUrl)
      break
    } catch {
      if (Date.now() > deadline) throw new Error(`${opts.readyUrl} not ready in time`)
      await new Promise((r) => setTimeout(r, 200))
    }
  }
  return {
    url: opts.url,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
        setTimeout(() => child.kill('SIGKILL'), 5000).unref()
      }),
  }
}
