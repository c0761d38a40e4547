// How log lines reach stdout (issue 15): the lines of one event-loop turn leave together, in
// synchronous writes at the end of the turn, instead of pino's default of handing each batch to a
// libuv thread (a thread hand-off per batch, which cost more than the write). Writing never throws
// into the code that logs and never holds the event loop up: a full pipe leaves the lines waiting
// in memory, bounded. Decision 015.
import { writeSync as fsWriteSync } from 'node:fs'

/** The most a write to a pipe keeps in one piece (Linux). */
export const PIPE_BUF = 4096

type WriteSync = (fd: number, data: Buffer) => number

export interface FdWriterOptions {
  /** The system call (replaced in tests). */
  writeSync?: WriteSync
  /** Bytes that may wait for a full pipe; lines beyond are dropped and counted. */
  maxBacklog?: number
  /** How soon a full pipe is tried again. */
  retryMs?: number
  /** Told once when writing stops for good (stdout closed, disk full) or lines are dropped. */
  onTrouble?: (message: string) => void
}

/**
 * Writes chunks of whole lines to `fd`. While the reader keeps up every chunk goes out at once.
 * When the pipe is full (EAGAIN; stdout is non-blocking once node has touched it) the chunk and
 * every later one wait, in order, and are tried again every `retryMs`; a chunk of up to PIPE_BUF
 * bytes is written whole or not at all, so waiting never splits a line. A closed stdout (EPIPE,
 * EBADF) or any other error ends writing. `drain` (on exit) keeps trying for up to `timeoutMs`.
 */
export function createFdWriter(fd: number, options: FdWriterOptions = {}) {
  const writeSync = options.writeSync ?? (fsWriteSync as WriteSync)
  const maxBacklog = options.maxBacklog ?? 16 * 1024 * 1024
  const retryMs = options.retryMs ?? 10
  const backlog: Buffer[] = []
  let backlogBytes = 0
  let dropped = 0
  let stopped = false
  let timer: NodeJS.Timeout | null = null

  const trouble = (message: string) => options.onTrouble?.(message)

  /** Writes the backlog's chunks in order until one has to wait; false when it has to. */
  const writeBacklog = (): boolean => {
    while (backlog.length > 0 && !stopped) {
      const chunk = backlog[0]!
      let written: number
      try {
        written = writeSync(fd, chunk)
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EAGAIN') return false
        stopped = true
        backlog.length = 0
        backlogBytes = 0
        trouble(`log output stopped: ${(err as Error).message}`)
        return true
      }
      backlogBytes -= written
      if (written < chunk.byteLength) backlog[0] = chunk.subarray(written)
      else backlog.shift()
    }
    return true
  }

  const retryLater = () => {
    if (timer || stopped) return
    timer = setTimeout(() => {
      timer = null
      if (!writeBacklog()) retryLater()
      else if (dropped > 0) {
        trouble(`log output: ${dropped} lines dropped while stdout was not read`)
        dropped = 0
      }
    }, retryMs)
    timer.unref()
  }

  return {
    write(text: string): void {
      if (stopped) return
      const chunk = Buffer.from(text)
      if (backlogBytes + chunk.byteLength > maxBacklog) {
        dropped += text.split('\n').length - 1 || 1
        return
      }
      backlog.push(chunk)
      backlogBytes += chunk.byteLength
      if (backlog.length === 1 && writeBacklog()) return
      retryLater()
    },

    /** Writes what waits, trying a full pipe again for up to `timeoutMs` (at exit). */
    drain(timeoutMs = 1000): void {
      const deadline = Date.now() + timeoutMs
      const pause = new Int32Array(new SharedArrayBuffer(4))
      while (!writeBacklog() && Date.now() < deadline) Atomics.wait(pause, 0, 0, 1)
    },

    waiting: () => backlogBytes,
  }
}

/**
 * Collects lines and hands them to `write` at the end of the event-loop turn, as chunks of whole
 * lines of at most `maxBytes` (a longer line goes alone): the supervisor's workers share one stdout
 * pipe, and a pipe keeps a write of up to PIPE_BUF bytes in one piece, so their lines never mix
 * within a line. After `end()` (the exit handler) every line is handed on at once.
 */
export function createLineSink(write: (text: string) => void, maxBytes = PIPE_BUF) {
  let pending = ''
  let bytes = 0
  let scheduled = false
  let ended = false
  const flush = () => {
    scheduled = false
    if (!pending) return
    const text = pending
    pending = ''
    bytes = 0
    write(text)
  }
  return {
    write(line: string) {
      const size = Buffer.byteLength(line)
      if (bytes > 0 && bytes + size > maxBytes) flush()
      pending += line
      bytes += size
      if (ended || bytes >= maxBytes) flush()
      else if (!scheduled) {
        scheduled = true
        setImmediate(flush)
      }
    },
    /** What pino calls for a fatal line and for `logger.flush(cb)`. */
    flushSync: flush,
    flush(cb?: (err?: Error) => void) {
      flush()
      cb?.()
    },
    /** From now on lines are not held for the end of the turn (there is none after exit). */
    end() {
      ended = true
      flush()
    },
  }
}

/** The process's log output: a line sink on stdout, drained on exit (a crash's last lines too). */
export function stdoutLineSink() {
  // node makes a stdout pipe non-blocking once process.stdout exists: made so here, so that a full
  // pipe always answers EAGAIN (lines wait) rather than sometimes blocking the worker
  void process.stdout
  const out = createFdWriter(1, {
    onTrouble: (message) => {
      try {
        fsWriteSync(2, `${message}\n`)
      } catch {}
    },
  })
  const sink = createLineSink(out.write)
  process.on('exit', () => {
    sink.end()
    out.drain()
  })
  return sink
}
