// A page compressed once, with holes for the values that change on every response (the CSP nonce,
// the forms' idempotency keys), so that serving it again costs a copy and a checksum instead of
// compressing ~40 KB of HTML (measured on a game page: about 30 µs against 600–900 µs).
//
// How: the text is deflated in pieces, each ending on a byte boundary (a sync flush) and
// compressed with the text before it as its dictionary, so the pieces read as one deflate stream.
// The first occurrence of a hole is a stored (uncompressed) block that each response fills with
// its value. In what deflate sees, a hole is a placeholder made of bytes that never occur in UTF-8
// text, unique to that hole and offset (slices of one de Bruijn sequence), so the only references
// deflate can make into a hole are from a later occurrence of the same hole: the decoder copies
// the response's value there. Each template is checked at compile time by decoding it filled
// with values that name each hole byte's position (decodesRight); if deflate did anything else
// (a reference ending inside a placeholder can copy from the wrong hole), every occurrence
// becomes a stored block instead. Gzip's header and trailer (CRC-32 and length) are per response.
import { promisify } from 'node:util'
import { constants, crc32, deflateRaw, gunzip } from 'node:zlib'

const deflateRawAsync = promisify(deflateRaw)
const gunzipAsync = promisify(gunzip)

/** Deflate's window: a dictionary longer than this is of no use. */
const WINDOW = 32 * 1024
/** What a sync flush leaves at the end: an empty stored block's LEN and NLEN. */
const SYNC_MARKER = Buffer.from([0x00, 0x00, 0xff, 0xff])
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff])
/** A final, empty block with fixed codes: ends the deflate stream. */
const FINAL_BLOCK = Buffer.from([0x03, 0x00])

/** Text, or the id of a hole filled per response. */
export type TemplatePart = Buffer | number

export interface GzipTemplate {
  /** The text and the holes, in order (for the checksum of each response's text). */
  parts: TemplatePart[]
  /** Deflated text pieces (each ending in the stored-block header of the hole after it) and holes. */
  pieces: TemplatePart[]
  /** Each hole's length in bytes: a value of another length cannot go in. */
  holeBytes: Map<number, number>
}

/**
 * Compresses `parts` once (off the event loop). `holeBytes` gives each hole's length; every
 * occurrence of one id is filled with the same value.
 */
export async function compileGzipTemplate(
  parts: TemplatePart[],
  holeBytes: Map<number, number>,
  level = 9,
): Promise<GzipTemplate> {
  const placeholders = placeholdersFor(holeBytes)
  if (placeholders) {
    const template = await compile(parts, holeBytes, placeholders, true, level)
    if (await decodesRight(template)) return template
  }
  const template = await compile(parts, holeBytes, placeholders ?? fillers(holeBytes), false, level)
  if (!(await decodesRight(template))) throw new Error('gzip template does not decode to its text')
  return template
}

async function compile(
  parts: TemplatePart[],
  holeBytes: Map<number, number>,
  placeholders: Map<number, Buffer>,
  repeatsAsReferences: boolean,
  level: number,
): Promise<GzipTemplate> {
  const pieces: TemplatePart[] = []
  let history: Buffer = Buffer.alloc(0)
  /** Where each hole last stood in the text, and how much text came so far. */
  const lastAt = new Map<number, number>()
  let offset = 0
  /** Text (with placeholders for repeated holes) not deflated yet. */
  let pending: Buffer[] = []

  const deflatePending = async () => {
    const text = Buffer.concat(pending)
    pending = []
    if (text.byteLength === 0) return
    const deflated = await deflateRawAsync(text, {
      level,
      finishFlush: constants.Z_SYNC_FLUSH,
      ...(history.byteLength > 0 ? { dictionary: history } : {}),
    })
    if (!deflated.subarray(-4).equals(SYNC_MARKER)) throw new Error('deflate did not end on a sync flush')
    pieces.push(deflated)
    history = tail(Buffer.concat([history, text]))
  }

  for (const part of parts) {
    if (typeof part !== 'number') {
      pending.push(part)
      offset += part.byteLength
      continue
    }
    const length = holeBytes.get(part)
    const placeholder = placeholders.get(part)
    if (length === undefined || length > 0xffff || !placeholder)
      throw new Error(`hole ${part}: no length given, or over 65535 bytes`)
    const last = lastAt.get(part)
    lastAt.set(part, offset)
    offset += length
    // a repeat well inside deflate's window: left to deflate, which refers back to the last one
    if (repeatsAsReferences && last !== undefined && offset - last < WINDOW / 2) {
      pending.push(placeholder)
      continue
    }
    await deflatePending()
    const previous = pieces.at(-1)
    if (!Buffer.isBuffer(previous)) {
      // at the start or right after another hole: a stored block header of its own
      pieces.push(Buffer.concat([Buffer.from([0x00]), storedLength(length)]))
    } else {
      // the piece before ends in an empty stored block: give it this hole's length instead
      pieces[pieces.length - 1] = Buffer.concat([previous.subarray(0, -4), storedLength(length)])
    }
    pieces.push(part)
    history = tail(Buffer.concat([history, placeholder]))
  }
  await deflatePending()
  return { parts, pieces, holeBytes }
}

/**
 * Decodes the template filled with value sets in which every hole byte's position in the holes
 * (g) is spelled out: g's three bytes, then its low byte inverted. Right for all four, no byte of
 * the output can come from the wrong hole or offset (each g has its own four values), nor be text
 * where a value belongs or the reverse (a value byte changes between the first and the last set).
 */
async function decodesRight(template: GzipTemplate): Promise<boolean> {
  const sets = [(g: number) => g, (g: number) => g >> 8, (g: number) => g >> 16, (g: number) => ~g]
  for (const byteOf of sets) {
    let g = 0
    const values = new Map<number, Buffer>()
    for (const [id, length] of template.holeBytes) {
      const value = Buffer.alloc(length)
      for (let i = 0; i < length; i++) value[i] = byteOf(g++) & 0xff
      values.set(id, value)
    }
    const gz = fillGzipTemplate(template, (id) => values.get(id)!)
    const text = Buffer.concat(template.parts.map((p) => (typeof p === 'number' ? values.get(p)! : p)))
    try {
      if (!gz || !(await gunzipAsync(gz)).equals(text)) return false
    } catch {
      return false
    }
  }
  return true
}

/**
 * A placeholder for each hole: consecutive slices of a de Bruijn sequence over the 13 byte values
 * that never occur in UTF-8, so no three bytes repeat anywhere in them; null when the holes are
 * longer than the sequence.
 */
function placeholdersFor(holeBytes: Map<number, number>): Map<number, Buffer> | null {
  const total = [...holeBytes.values()].reduce((a, b) => a + b, 0)
  if (total > NOT_UTF8_SEQUENCE.byteLength) return null
  const out = new Map<number, Buffer>()
  let at = 0
  for (const [id, length] of holeBytes) {
    out.set(id, NOT_UTF8_SEQUENCE.subarray(at, at + length))
    at += length
  }
  return out
}

/** Placeholders for the stored-only fallback: any bytes that never occur in UTF-8. */
function fillers(holeBytes: Map<number, number>): Map<number, Buffer> {
  return new Map([...holeBytes].map(([id, length]) => [id, Buffer.alloc(length, 0xff)]))
}

const NOT_UTF8 = [0xc0, 0xc1, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff]
const NOT_UTF8_SEQUENCE = Buffer.from(deBruijn(NOT_UTF8.length, 3).map((i) => NOT_UTF8[i]!))

/** A de Bruijn sequence B(k, n) (every string of n symbols out of k appears once), as symbol indexes. */
function deBruijn(k: number, n: number): number[] {
  const a = new Array<number>(k * n).fill(0)
  const sequence: number[] = []
  const db = (t: number, p: number) => {
    if (t > n) {
      if (n % p === 0) sequence.push(...a.slice(1, p + 1))
      return
    }
    a[t] = a[t - p]!
    db(t + 1, p)
    for (let j = a[t - p]! + 1; j < k; j++) {
      a[t] = j
      db(t + 1, t)
    }
  }
  db(1, 1)
  return sequence
}

/**
 * The gzip bytes of the text with each hole filled by `fill(id)`, or null when a value's length
 * is not the hole's (then compress the text the usual way).
 */
export function fillGzipTemplate(
  template: GzipTemplate,
  fill: (id: number) => Buffer,
): Buffer<ArrayBuffer> | null {
  const values = new Map<number, Buffer>()
  for (const [id, length] of template.holeBytes) {
    const value = fill(id)
    if (value.byteLength !== length) return null
    values.set(id, value)
  }
  let crc = 0
  let size = 0
  for (const part of template.parts) {
    const bytes = typeof part === 'number' ? values.get(part)! : part
    // (an empty Buffer may have no memory behind it, and crc32 then answers 0)
    if (bytes.byteLength > 0) crc = crc32(bytes, crc)
    size += bytes.byteLength
  }
  const trailer = Buffer.alloc(8)
  trailer.writeUInt32LE(crc >>> 0, 0)
  trailer.writeUInt32LE(size >>> 0, 4)
  const chunks: Buffer[] = [GZIP_HEADER]
  for (const piece of template.pieces) chunks.push(typeof piece === 'number' ? values.get(piece)! : piece)
  chunks.push(FINAL_BLOCK, trailer)
  return Buffer.concat(chunks)
}

/** The bytes of the text parts (holes count none). */
export function textBytes(parts: TemplatePart[]): number {
  return parts.reduce<number>((n, p) => n + (typeof p === 'number' ? 0 : p.byteLength), 0)
}

/** A stored block's LEN and its ones' complement NLEN, little-endian. */
function storedLength(length: number): Buffer {
  const b = Buffer.alloc(4)
  b.writeUInt16LE(length, 0)
  b.writeUInt16LE(~length & 0xffff, 2)
  return b
}

function tail(history: Buffer): Buffer {
  return history.byteLength > WINDOW ? history.subarray(history.byteLength - WINDOW) : history
}
