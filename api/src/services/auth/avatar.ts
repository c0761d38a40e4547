import { randomBytes } from 'node:crypto'
import { mkdir, unlink, writeFile } from 'node:fs/promises'
import path from 'node:path'

/** The image kinds we store, recognised by their first bytes, never by name or declared type. */
export function sniffImage(bytes: Uint8Array): 'png' | 'jpg' | 'gif' | 'webp' | null {
  const b = (i: number) => bytes[i]
  if (bytes.length >= 8 && b(0) === 0x89 && b(1) === 0x50 && b(2) === 0x4e && b(3) === 0x47) return 'png'
  if (bytes.length >= 3 && b(0) === 0xff && b(1) === 0xd8 && b(2) === 0xff) return 'jpg'
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to))
  if (bytes.length >= 6 && (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a')) return 'gif'
  if (bytes.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp'
  return null
}

/** Stores an image under a random name in `dir`; returns the name (served at /media/<name>). */
export async function storeImage(dir: string, bytes: Uint8Array, ext: string): Promise<string> {
  await mkdir(dir, { recursive: true })
  const name = `${randomBytes(16).toString('hex')}.${ext}`
  await writeFile(path.join(dir, name), bytes, { flag: 'wx' })
  return name
}

/** Best-effort removal of a stored image (a missing file is fine). */
export async function removeImage(dir: string, name: string | null): Promise<void> {
  if (!name || !/^[a-f0-9]{32}\.(png|jpg|gif|webp)$/.test(name)) return
  await unlink(path.join(dir, name)).catch(() => {})
}
