import { createHash, createHmac, timingSafeEqual } from 'node:crypto'

export function hmacSha256Hex(secret: string, data: string | Buffer): string {
  return createHmac('sha256', secret).update(data).digest('hex')
}

export function sha256Hex(data: string): string {
  return createHash('sha256').update(data).digest('hex')
}

/** Constant-time comparison of two hex/text signatures (case-insensitive for hex). */
export function safeEqual(expected: string, given: string | null | undefined): boolean {
  if (typeof given !== 'string') return false
  const a = Buffer.from(expected.toLowerCase())
  const b = Buffer.from(given.trim().toLowerCase())
  return a.length === b.length && timingSafeEqual(a, b)
}
