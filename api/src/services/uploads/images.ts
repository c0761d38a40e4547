// Uploaded images are recognised by their bytes (never by the client's file name or declared
// type) and rebuilt without metadata before they are stored: camera and editor metadata (EXIF with
// GPS, XMP, comments, timestamps, text chunks) is personal data we have no use for, and trailing
// bytes after the image's end are how polyglot files hide. Each format is walked by its own
// structure; anything that does not parse is refused, not passed through.
import { crc32 } from 'node:zlib'

export type ImageKind = 'png' | 'jpg' | 'gif' | 'webp'

export const CONTENT_TYPE: Record<ImageKind, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
}

export interface CleanImage {
  kind: ImageKind
  contentType: string
  bytes: Buffer
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/** The image format by its magic bytes, or null when the bytes are not a PNG, JPEG, GIF or WebP. */
export function sniffImage(bytes: Uint8Array): ImageKind | null {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (b.length >= 8 && b.subarray(0, 8).equals(PNG_SIGNATURE)) return 'png'
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpg'
  const head = b.toString('latin1', 0, 12)
  if (head.startsWith('GIF87a') || head.startsWith('GIF89a')) return 'gif'
  if (b.length >= 12 && head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP') return 'webp'
  return null
}

/** The image, recognised and stripped of metadata; null when it is not one we accept or is malformed. */
export function cleanImage(input: Uint8Array): CleanImage | null {
  const b = Buffer.from(input.buffer, input.byteOffset, input.byteLength)
  const kind = sniffImage(b)
  if (!kind) return null
  const bytes = STRIP[kind](b)
  return bytes ? { kind, contentType: CONTENT_TYPE[kind], bytes } : null
}

const STRIP: Record<ImageKind, (b: Buffer) => Buffer | null> = {
  png: stripPng,
  jpg: stripJpeg,
  gif: stripGif,
  webp: stripWebp,
}

// Chunks that decoding or colour need; every other ancillary chunk (tEXt, iTXt, zTXt, eXIf, tIME,
// private ones) is dropped. APNG's animation chunks stay.
const PNG_KEEP = new Set([
  'IHDR',
  'PLTE',
  'IDAT',
  'IEND',
  'tRNS',
  'gAMA',
  'cHRM',
  'sRGB',
  'iCCP',
  'sBIT',
  'bKGD',
  'pHYs',
  'acTL',
  'fcTL',
  'fdAT',
])

function stripPng(b: Buffer): Buffer | null {
  const out: Buffer[] = [PNG_SIGNATURE]
  let pos = 8
  while (pos + 12 <= b.length) {
    const length = b.readUInt32BE(pos)
    const type = b.toString('latin1', pos + 4, pos + 8)
    const end = pos + 12 + length
    if (end > b.length || !/^[A-Za-z]{4}$/.test(type)) return null
    if (pos === 8 && type !== 'IHDR') return null
    if (crc32(b.subarray(pos + 4, pos + 8 + length)) !== b.readUInt32BE(pos + 8 + length)) return null
    if (PNG_KEEP.has(type)) out.push(b.subarray(pos, end))
    pos = end
    if (type === 'IEND') return Buffer.concat(out)
  }
  return null
}

const isRestart = (m: number) => m >= 0xd0 && m <= 0xd7

/** APPn segments that decoding or colour need: JFIF, Adobe (colour transform), ICC profile. */
function keepJpegApp(marker: number, b: Buffer, data: number, end: number): boolean {
  const id = b.toString('latin1', data, Math.min(end, data + 12))
  if (marker === 0xe0) return id.startsWith('JFIF\0')
  if (marker === 0xe2) return id.startsWith('ICC_PROFILE\0')
  if (marker === 0xee) return id.startsWith('Adobe')
  return false
}

function stripJpeg(b: Buffer): Buffer | null {
  const out: Buffer[] = [b.subarray(0, 2)]
  let pos = 2
  while (pos + 1 < b.length) {
    if (b[pos] !== 0xff) return null
    // fill bytes before a marker
    while (b[pos + 1] === 0xff) pos++
    const marker = b[pos + 1]
    if (marker === undefined) return null
    if (marker === 0xd9) {
      out.push(Buffer.from([0xff, 0xd9]))
      return Buffer.concat(out)
    }
    if (isRestart(marker) || marker === 0x01) {
      out.push(b.subarray(pos, pos + 2))
      pos += 2
      continue
    }
    if (pos + 4 > b.length) return null
    const length = b.readUInt16BE(pos + 2)
    const end = pos + 2 + length
    if (length < 2 || end > b.length) return null
    const isApp = marker >= 0xe0 && marker <= 0xef
    const drop = marker === 0xfe || (isApp && !keepJpegApp(marker, b, pos + 4, end))
    if (!drop) out.push(b.subarray(pos, end))
    pos = end
    if (marker === 0xda) {
      // entropy-coded data runs to the next marker that is neither a stuffed 0xFF00 nor a restart
      let i = pos
      while (i + 1 < b.length && !(b[i] === 0xff && b[i + 1] !== 0 && !isRestart(b[i + 1] as number))) i++
      if (i + 1 >= b.length) return null
      out.push(b.subarray(pos, i))
      pos = i
    }
  }
  return null
}

/** Index just past a run of GIF data sub-blocks starting at `pos`, or -1 when it runs off the end. */
function gifSubBlocksEnd(b: Buffer, pos: number): number {
  let p = pos
  for (;;) {
    if (p >= b.length) return -1
    const size = b[p] as number
    p += 1 + size
    if (size === 0) return p
  }
}

const colourTableBytes = (flags: number) => (flags & 0x80 ? 3 * (1 << ((flags & 7) + 1)) : 0)

// Application extensions that animation needs (looping); comments and others (XMP) are dropped.
const GIF_KEEP_APPS = new Set(['NETSCAPE2.0', 'ANIMEXTS1.0'])

function stripGif(b: Buffer): Buffer | null {
  if (b.length < 13) return null
  let pos = 13 + colourTableBytes(b[10] as number)
  if (pos > b.length) return null
  const out: Buffer[] = [b.subarray(0, pos)]
  while (pos < b.length) {
    const introducer = b[pos]
    if (introducer === 0x3b) {
      out.push(Buffer.from([0x3b]))
      return Buffer.concat(out)
    }
    if (introducer === 0x2c) {
      if (pos + 11 > b.length) return null
      // descriptor, local colour table, LZW code size, then the image data sub-blocks
      const end = gifSubBlocksEnd(b, pos + 11 + colourTableBytes(b[pos + 9] as number))
      if (end < 0) return null
      out.push(b.subarray(pos, end))
      pos = end
    } else if (introducer === 0x21) {
      const label = b[pos + 1]
      const end = gifSubBlocksEnd(b, pos + 2)
      if (end < 0) return null
      const app = b[pos + 2] === 11 ? b.toString('latin1', pos + 3, pos + 14) : ''
      const keep = label === 0xf9 || label === 0x01 || (label === 0xff && GIF_KEEP_APPS.has(app))
      if (keep) out.push(b.subarray(pos, end))
      pos = end
    } else {
      return null
    }
  }
  return null
}

// Chunks that decoding, transparency, animation or colour need; EXIF, XMP and unknown ones go.
const WEBP_KEEP = new Set(['VP8 ', 'VP8L', 'VP8X', 'ALPH', 'ANIM', 'ANMF', 'ICCP'])
const WEBP_FIRST = new Set(['VP8 ', 'VP8L', 'VP8X'])

function stripWebp(b: Buffer): Buffer | null {
  const end = 8 + b.readUInt32LE(4)
  if (end > b.length || end < 12) return null
  const chunks: Buffer[] = []
  let pos = 12
  while (pos + 8 <= end) {
    const fourcc = b.toString('latin1', pos, pos + 4)
    const size = b.readUInt32LE(pos + 4)
    const dataEnd = pos + 8 + size
    if (dataEnd > end) return null
    if (chunks.length === 0 && !WEBP_FIRST.has(fourcc)) return null
    if (WEBP_KEEP.has(fourcc)) {
      const chunk = Buffer.from(b.subarray(pos, dataEnd))
      if (fourcc === 'VP8X') {
        if (size < 10) return null
        chunk[8] = (chunk[8] as number) & ~0x0c // the EXIF and XMP flags: those chunks are gone
      }
      chunks.push(chunk)
      if (size % 2 === 1) chunks.push(Buffer.alloc(1))
    }
    pos = dataEnd + (size % 2)
  }
  if (chunks.length === 0) return null
  const body = Buffer.concat(chunks)
  const header = Buffer.alloc(12)
  header.write('RIFF', 0, 'latin1')
  header.writeUInt32LE(4 + body.length, 4)
  header.write('WEBP', 8, 'latin1')
  return Buffer.concat([header, body])
}
