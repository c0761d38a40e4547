import { type ChildProcess, spawn } from 'node:child_process'

export interface Running {
  url: string
  stop(): Promise<void>
}

/** Starts a command and waits until `readyUrl` answers (any HTTP status). */
export async function startProcess(
  cmd: string,
  args: string[],
  opts: { env?: Record<string, string>; readyUrl: string; url: string; timeoutMs?: number },
): Promise<Running> {
  const child: ChildProcess = spawn(cmd, args, {
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
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
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
        setTimeout(() => child.kill('SIGKILL'), 5000).unref()
      }),
  }
}
