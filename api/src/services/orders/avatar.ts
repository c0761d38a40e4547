// Standoff avatar images: recognised by their bytes, never by the client's name or type, and
// stored under a random name of our own.
import { randomBytes } from 'node:crypto'
import { mkdir, unlink, writeFile } from 'node:fs/promises'
import path from 'node:path'

export const MAX_AVATAR_BYTES = 2 * 1024 * 1024

export type ImageExt = 'png' | 'jpg' | 'webp' | 'gif'

const ascii = (bytes: Uint8Array, from: number, text: string) =>
  text.split('').every((ch, i) => bytes[from + i] === ch.charCodeAt(0))

/** The image format by its magic bytes, or null when the bytes are not a PNG, JPEG, WebP or GIF. */
export function sniffImage(bytes: Uint8Array): ImageExt | null {
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
  if (bytes.length >= 8 && png.every((b, i) => bytes[i] === b)) return 'png'
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpg'
  if (bytes.length >= 6 && (ascii(bytes, 0, 'GIF87a') || ascii(bytes, 0, 'GIF89a'))) return 'gif'
  if (bytes.length >= 12 && ascii(bytes, 0, 'RIFF') && ascii(bytes, 8, 'WEBP')) return 'webp'
  return null
}

/** Writes the image under a fresh random name in `dir`; returns its public path `/media/<name>`. */
export async function storeImage(dir: string, bytes: Uint8Array, ext: ImageExt): Promise<string> {
  await mkdir(dir, { recursive: true })
  const name = `${randomBytes(16).toString('hex')}.${ext}`
  await writeFile(path.join(dir, name), bytes, { flag: 'wx' })
  return `/media/${name}`
}

/** Removes a file stored by `storeImage` (used when the order change that needed it fails). */
export async function removeStoredImage(dir: string, publicPath: string): Promise<void> {
  const name = path.basename(publicPath)
  if (!/^[0-9a-f]{32}\.(png|jpg|webp|gif)$/.test(name)) return
  await unlink(path.join(dir, name)).catch(() => {})
}
