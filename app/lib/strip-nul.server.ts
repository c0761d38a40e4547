import { Transform } from 'node:stream'

/**
 * React 18.3's streaming renderer pads a 2 KB write buffer with NUL bytes when a multi-byte
 * character (all of our Cyrillic) does not fit at its end, so a "\0" lands inside the text
 * (fixed only in React 19). A NUL byte never occurs inside a UTF-8 character, so dropping every
 * 0x00 byte restores the HTML exactly.
 */
export function stripNulBytes(): Transform {
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      if (!chunk.includes(0)) return done(null, chunk)
      const out = Buffer.allocUnsafe(chunk.length)
      let n = 0
      for (const byte of chunk) if (byte !== 0) out[n++] = byte
      done(null, out.subarray(0, n))
    },
  })
}
