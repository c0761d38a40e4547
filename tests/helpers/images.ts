// Small real images (drawn by Chromium's canvas; PNG and GIF by hand) and ways to load them with
// the metadata a camera or an editor leaves, for the upload tests.
import { crc32 } from 'node:zlib'

const b64 = (s: string) => Buffer.from(s, 'base64')

/** 1×1 PNG. */
export const PNG = b64(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
)
/** 1×1 GIF. */
export const GIF = b64('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==')
/** 2×2 JPEG with JFIF and an sRGB ICC profile (both kept: decoding and colour need them). */
export const JPEG = b64(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/4gHYSUNDX1BST0ZJTEUAAQEAAAHIAAAAAAQwAABtbnRyUkdCIFhZWiAH4AABAAEAAAAAAABhY3NwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQAA9tYAAQAAAADTLQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAlkZXNjAAAA8AAAACRyWFlaAAABFAAAABRnWFlaAAABKAAAABRiWFlaAAABPAAAABR3dHB0AAABUAAAABRyVFJDAAABZAAAAChnVFJDAAABZAAAAChiVFJDAAABZAAAAChjcHJ0AAABjAAAADxtbHVjAAAAAAAAAAEAAAAMZW5VUwAAAAgAAAAcAHMAUgBHAEJYWVogAAAAAAAAb6IAADj1AAADkFhZWiAAAAAAAABimQAAt4UAABjaWFlaIAAAAAAAACSgAAAPhAAAts9YWVogAAAAAAAA9tYAAQAAAADTLXBhcmEAAAAAAAQAAAACZmYAAPKnAAANWQAAE9AAAApbAAAAAAAAAABtbHVjAAAAAAAAAAEAAAAMZW5VUwAAACAAAAAcAEcAbwBvAGcAbABlACAASQBuAGMALgAgADIAMAAxADb/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCAACAAIDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAb/xAAYEAEBAQEBAAAAAAAAAAAAAAABAgARQf/EABUBAQEAAAAAAAAAAAAAAAAAAAUH/8QAGhEAAgIDAAAAAAAAAAAAAAAAAAECAzEzcf/aAAwDAQACEQMRAD8Aj6WqapWl6r7mZg1gp1GuPEf/2Q==',
)
/** 2×2 lossy WebP (VP8X with an ICC profile). */
export const WEBP = b64(
  'UklGRiACAABXRUJQVlA4WAoAAAAgAAAAAQAAAQAASUNDUMgBAAAAAAHIAAAAAAQwAABtbnRyUkdCIFhZWiAH4AABAAEAAAAAAABhY3NwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQAA9tYAAQAAAADTLQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAlkZXNjAAAA8AAAACRyWFlaAAABFAAAABRnWFlaAAABKAAAABRiWFlaAAABPAAAABR3dHB0AAABUAAAABRyVFJDAAABZAAAAChnVFJDAAABZAAAAChiVFJDAAABZAAAAChjcHJ0AAABjAAAADxtbHVjAAAAAAAAAAEAAAAMZW5VUwAAAAgAAAAcAHMAUgBHAEJYWVogAAAAAAAAb6IAADj1AAADkFhZWiAAAAAAAABimQAAt4UAABjaWFlaIAAAAAAAACSgAAAPhAAAts9YWVogAAAAAAAA9tYAAQAAAADTLXBhcmEAAAAAAAQAAAACZmYAAPKnAAANWQAAE9AAAApbAAAAAAAAAABtbHVjAAAAAAAAAAEAAAAMZW5VUwAAACAAAAAcAEcAbwBvAGcAbABlACAASQBuAGMALgAgADIAMAAxADZWUDggMgAAALABAJ0BKgIAAgABQCYloAJ0ugAEMAAA/vAcy+v2DIIAt/wG6+LaZf/LP/P74u8OAAAA',
)

/** What the metadata says: the tests look for this text in what is stored and served. */
export const SECRET = 'GPS 55.7558N 37.6173E owner ivan.petrov@example.com'

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(data.length, 0)
  head.write(type, 4, 'latin1')
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])))
  return Buffer.concat([head, data, crc])
}

/** The PNG with tEXt, iTXt, zTXt, tIME, eXIf and a private chunk after IHDR, and bytes after IEND. */
export function pngWithMetadata(png = PNG): Buffer {
  const afterIhdr = 8 + 25
  const text = Buffer.from(SECRET, 'latin1')
  return Buffer.concat([
    png.subarray(0, afterIhdr),
    pngChunk('tEXt', Buffer.concat([Buffer.from('Comment\0'), text])),
    pngChunk('iTXt', Buffer.concat([Buffer.from('Author\0\0\0\0\0'), text])),
    pngChunk('zTXt', Buffer.concat([Buffer.from('Title\0\0'), text])),
    pngChunk('tIME', Buffer.from([0x07, 0xea, 11, 23, 10, 0, 0])),
    pngChunk('eXIf', Buffer.concat([Buffer.from('MM\0*'), text])),
    pngChunk('prVt', text),
    png.subarray(afterIhdr),
    Buffer.from(`<?php ${SECRET} ?>`),
  ])
}

function jpegSegment(marker: number, data: Buffer): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0])
  head.writeUInt16BE(data.length + 2, 2)
  return Buffer.concat([head, data])
}

/** The JPEG with EXIF and XMP (APP1), a Photoshop block (APP13) and a comment, and bytes after EOI. */
export function jpegWithMetadata(jpeg = JPEG): Buffer {
  const text = Buffer.from(SECRET, 'latin1')
  return Buffer.concat([
    jpeg.subarray(0, 2),
    jpegSegment(0xe1, Buffer.concat([Buffer.from('Exif\0\0MM\0*'), text])),
    jpegSegment(0xe1, Buffer.concat([Buffer.from('http://ns.adobe.com/xap/1.0/\0'), text])),
    jpegSegment(0xed, Buffer.concat([Buffer.from('Photoshop 3.0\0'), text])),
    jpegSegment(0xfe, text),
    jpeg.subarray(2),
    text,
  ])
}

/** The GIF with a comment and an XMP application extension before its image, and bytes after it. */
export function gifWithMetadata(gif = GIF): Buffer {
  const text = Buffer.from(SECRET, 'latin1')
  const subBlocks = (data: Buffer) => Buffer.concat([Buffer.from([data.length]), data, Buffer.from([0])])
  const afterHeader = 13 + 6 // header, logical screen, a 2-colour table
  return Buffer.concat([
    gif.subarray(0, afterHeader),
    Buffer.from([0x21, 0xfe]),
    subBlocks(text),
    Buffer.from([0x21, 0xff, 11]),
    Buffer.from('XMP DataXMP', 'latin1'),
    subBlocks(text),
    gif.subarray(afterHeader),
    text,
  ])
}

/** The WebP with EXIF and XMP chunks (flagged in VP8X), and bytes after the RIFF container. */
export function webpWithMetadata(webp = WEBP): Buffer {
  const text = Buffer.from(SECRET, 'latin1')
  const chunk = (fourcc: string, data: Buffer) => {
    const head = Buffer.alloc(8)
    head.write(fourcc, 0, 'latin1')
    head.writeUInt32LE(data.length, 4)
    return Buffer.concat([head, data, Buffer.alloc(data.length % 2)])
  }
  const body = Buffer.concat([webp.subarray(12), chunk('EXIF', text), chunk('XMP ', text)])
  body[8] = (body[8] as number) | 0x0c
  const header = Buffer.alloc(12)
  header.write('RIFF', 0, 'latin1')
  header.writeUInt32LE(4 + body.length, 4)
  header.write('WEBP', 8, 'latin1')
  return Buffer.concat([header, body, text])
}
