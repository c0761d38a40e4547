// How log lines reach stdout (api/src/lib/log-output.ts): a turn's lines together, in chunks a
// pipe keeps whole; a full pipe makes lines wait in order, bounded; a closed one never throws.
import { describe, expect, it, vi } from 'vitest'
import { createFdWriter, createLineSink } from '#api/lib/log-output'

const recorder = () => {
  const writes: string[] = []
  return { writes, write: (text: string) => void writes.push(text) }
}
const nextTurn = () => new Promise((r) => setImmediate(r))
const errno = (code: string) => Object.assign(new Error(code), { code })

describe('the line sink', () => {
  it('hands on the lines of one turn of the event loop together, in order, when the turn ends', async () => {
    const out = recorder()
    const sink = createLineSink(out.write)
    sink.write('a\n')
    sink.write('b\n')
    expect(out.writes).toEqual([])
    await nextTurn()
    expect(out.writes).toEqual(['a\nb\n'])
    sink.write('c\n')
    await nextTurn()
    expect(out.writes).toEqual(['a\nb\n', 'c\n'])
  })

  it('hands on whole lines of at most its byte limit at a time, a longer line alone', async () => {
    const out = recorder()
    const sink = createLineSink(out.write, 13)
    sink.write('1234\n')
    sink.write('5678\n')
    expect(out.writes).toEqual([]) // 10 bytes wait for the end of the turn
    sink.write('аб\n') // 5 bytes in UTF-8, 3 characters: 15 bytes > 13, so the first two leave first
    expect(out.writes).toEqual(['1234\n5678\n'])
    sink.write('x'.repeat(20))
    expect(out.writes).toEqual(['1234\n5678\n', 'аб\n', 'x'.repeat(20)])
    sink.write('y\n')
    sink.flushSync()
    expect(out.writes.at(-1)).toBe('y\n')
    await nextTurn()
    expect(out.writes).toHaveLength(4) // nothing handed on twice, no empty write
  })

  it("calls pino's flush callback, and after end() hands every line on at once", () => {
    const out = recorder()
    const sink = createLineSink(out.write)
    sink.write('a\n')
    const done = vi.fn()
    sink.flush(done)
    expect(done).toHaveBeenCalledOnce()
    expect(out.writes).toEqual(['a\n'])
    sink.end()
    sink.write('logged in a later exit handler\n')
    expect(out.writes).toEqual(['a\n', 'logged in a later exit handler\n'])
  })
})

describe('the stdout writer', () => {
  /** A file descriptor whose pipe is full for the next `fullFor` writes. */
  const fakeFd = (fullFor = 0) => {
    const got: string[] = []
    let full = fullFor
    const writeSync = vi.fn((_fd: number, data: Buffer) => {
      if (full > 0) {
        full--
        throw errno('EAGAIN')
      }
      got.push(data.toString())
      return data.byteLength
    })
    return { got, writeSync }
  }

  it('writes at once while the reader keeps up', () => {
    const fd = fakeFd()
    const out = createFdWriter(1, { writeSync: fd.writeSync })
    out.write('a\n')
    out.write('b\n')
    expect(fd.got).toEqual(['a\n', 'b\n'])
    expect(out.waiting()).toBe(0)
  })

  it('keeps lines in order while the pipe is full and writes them when it has room', async () => {
    vi.useFakeTimers()
    try {
      const fd = fakeFd(3)
      const out = createFdWriter(1, { writeSync: fd.writeSync, retryMs: 10 })
      out.write('first\n')
      out.write('second\n') // waits behind the first, not tried on its own
      expect(fd.got).toEqual([])
      expect(out.waiting()).toBe(13)
      await vi.advanceTimersByTimeAsync(10)
      await vi.advanceTimersByTimeAsync(10)
      expect(fd.got).toEqual([])
      await vi.advanceTimersByTimeAsync(10)
      expect(fd.got).toEqual(['first\n', 'second\n'])
      expect(out.waiting()).toBe(0)
    } finally {
      vi.useRealTimers()
    }
  })

  it('writes the rest of a chunk the pipe took only part of', () => {
    const got: string[] = []
    const writeSync = vi.fn((_fd: number, data: Buffer) => {
      const n = Math.min(4, data.byteLength)
      got.push(data.subarray(0, n).toString())
      return n
    })
    createFdWriter(1, { writeSync }).write('0123456789\n')
    expect(got.join('')).toBe('0123456789\n')
  })

  it('drops and counts lines beyond its backlog, and says so once the pipe drains', async () => {
    vi.useFakeTimers()
    try {
      const fd = fakeFd(1)
      const trouble = vi.fn()
      const out = createFdWriter(1, { writeSync: fd.writeSync, maxBacklog: 8, onTrouble: trouble })
      out.write('1234\n')
      out.write('5678\n9\n') // 12 bytes waiting would be over 8: dropped, two lines
      expect(out.waiting()).toBe(5)
      await vi.advanceTimersByTimeAsync(10)
      expect(fd.got).toEqual(['1234\n'])
      expect(trouble).toHaveBeenCalledWith('log output: 2 lines dropped while stdout was not read')
    } finally {
      vi.useRealTimers()
    }
  })

  it('stops writing, without throwing, when stdout is closed', () => {
    const trouble = vi.fn()
    const writeSync = vi.fn(() => {
      throw errno('EPIPE')
    })
    const out = createFdWriter(1, { writeSync, onTrouble: trouble })
    expect(() => out.write('a\n')).not.toThrow()
    expect(() => out.write('b\n')).not.toThrow()
    expect(writeSync).toHaveBeenCalledOnce()
    expect(trouble).toHaveBeenCalledOnce()
    expect(out.waiting()).toBe(0)
  })

  it('drain (at exit) keeps trying a full pipe for a while', () => {
    const fd = fakeFd(5)
    const out = createFdWriter(1, { writeSync: fd.writeSync })
    out.write('last words\n')
    expect(fd.got).toEqual([])
    out.drain(1000)
    expect(fd.got).toEqual(['last words\n'])
  })
})
