// The image walker of uploads (api/src/services/uploads/images.ts): metadata out, the image itself
// untouched, and no input — cut, corrupted or made up — ever makes it throw (an upload must be a
// 4xx, never a 500).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { cleanImage, sniffImage } from '#api/services/uploads/images'
import {
  GIF,
  gifWithMetadata,
  JPEG,
  jpegWithMetadata,
  PNG,
  pngWithMetadata,
  SECRET,
  WEBP,
  webpWithMetadata,
} from '#tests/helpers/images'

const FORMATS = [
  ['png', PNG, pngWithMetadata()],
  ['jpg', JPEG, jpegWithMetadata()],
  ['gif', GIF, gifWithMetadata()],
  ['webp', WEBP, webpWithMetadata()],
] as const

describe('cleanImage', () => {
  it.each(FORMATS)('%s: a clean image comes back byte for byte', (kind, clean) => {
    const out = cleanImage(clean)
    expect(out?.kind).toBe(kind)
    expect(out?.bytes.equals(clean)).toBe(true)
  })

  it.each(FORMATS)('%s: metadata and trailing bytes are dropped, the image kept', (_kind, clean, dirty) => {
    expect(dirty.includes(SECRET)).toBe(true)
    const out = cleanImage(dirty)
    expect(out?.bytes.includes(SECRET)).toBe(false)
    expect(out?.bytes.equals(clean)).toBe(true)
  })

  it('knows the four formats by their bytes only', () => {
    expect(FORMATS.map(([, clean]) => sniffImage(clean))).toEqual(['png', 'jpg', 'gif', 'webp'])
    expect(sniffImage(Buffer.from('RIFF....WAVEfmt '))).toBeNull()
    expect(cleanImage(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull()
    expect(cleanImage(new Uint8Array())).toBeNull()
  })

  it('never throws on cut or corrupted images, and what it keeps is stable', () => {
    const sources = FORMATS.flatMap(([, clean, dirty]) => [clean, dirty])
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: sources.length - 1 }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 6 }),
        fc.option(fc.nat()),
        (which, flips, cut) => {
          const bytes = Buffer.from(sources[which]!)
          for (const [at, value] of flips) bytes[at % bytes.length] = value
          const input = cut === null ? bytes : bytes.subarray(0, cut % (bytes.length + 1))
          const out = cleanImage(input)
          // walking its own output again changes nothing: nothing half-stripped is stored
          if (out) expect(cleanImage(out.bytes)?.bytes.equals(out.bytes)).toBe(true)
        },
      ),
      { numRuns: 5000, seed: 19_20 },
    )
  })
})
