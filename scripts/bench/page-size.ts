import { request } from 'node:http'

export interface PageSize {
  path: string
  /** What a browser gets asking `gzip, deflate, br, zstd`: the encoding the server chose, and bytes. */
  browser: { encoding: string; bytes: number }
  /** Bytes when only gzip is accepted (null: not sent gzipped). */
  gzip: number | null
  identity: number
}

/** What browsers send (Chromium 156). */
const BROWSER_ACCEPT = 'gzip, deflate, br, zstd'
/** A phone's browser, as issue 46 measures the game page from outside (a bot gets another page). */
export const PHONE_UA =
  'Mozilla/5.0 (Linux; Android 13; SM-A135F) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36'

/** The body's bytes as the server sent them for one Accept-Encoding, and the encoding it chose. */
function wireBytes(url: string, encoding: string): Promise<{ bytes: number; encoding: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { 'accept-encoding': encoding, 'user-agent': PHONE_UA } }, (res) => {
      let bytes = 0
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.byteLength
      })
      res.on('end', () => {
        if (res.statusCode !== 200) reject(new Error(`${url}: HTTP ${res.statusCode}`))
        else resolve({ bytes, encoding: String(res.headers['content-encoding'] ?? 'identity') })
      })
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}

/** The game pages, the gifts list and a gift: every page the 10 KB gzipped target is for (issue 46). */
export async function shopPagePaths(base: string): Promise<Array<{ path: string; label: string }>> {
  const games = (await (await fetch(`${base}/api/games/?limit=100`)).json()) as {
    results: Array<{ id: number; title: string }>
  }
  const gifts = (await (await fetch(`${base}/api/gifts/?limit=1`)).json()) as {
    results?: Array<{ id: number; title: string }>
  }
  const gift = gifts.results?.[0]
  return [
    ...games.results.map((g) => ({ path: `/products/${g.id}`, label: g.title })),
    { path: '/gifts', label: 'gifts' },
    ...(gift ? [{ path: `/gifts/detalis/${gift.id}`, label: gift.title }] : []),
  ]
}

/** Pages over the target, gzipped. */
export const GZIP_TARGET_BYTES = 10 * 1024

/** A table of pages' sizes: bytes gzipped (the target's measure), as a browser asks, uncompressed. */
export function pageSizeTable(sizes: PageSize[], labels: Map<string, string> = new Map()): string[] {
  const rows = sizes.map((p) => {
    const over = p.gzip !== null && p.gzip > GZIP_TARGET_BYTES ? ' **over 10 KB**' : ''
    const label = labels.get(p.path)
    return `| ${p.path}${label ? ` (${label})` : ''} | ${p.gzip ?? 'not sent'}${over} | ${p.browser.bytes} (${p.browser.encoding}) | ${p.identity} |`
  })
  return [
    '| page | gzip only, B | as a browser asks, B | uncompressed B |',
    '| --- | ---: | ---: | ---: |',
    ...rows,
  ]
}

/**
 * What each page's HTML weighs on the wire, as a browser asks for it, gzip only and uncompressed.
 * Each page is loaded once first and given a moment, so that the figures are those of the page as
 * the cache serves it (kept, and compressed once), not of a first render.
 */
export async function pageSizes(base: string, paths: string[]): Promise<PageSize[]> {
  const out: PageSize[] = []
  for (const path of paths) {
    const url = `${base}${path}`
    await wireBytes(url, BROWSER_ACCEPT)
    await new Promise((r) => setTimeout(r, 200))
    const browser = await wireBytes(url, BROWSER_ACCEPT)
    const gzip = await wireBytes(url, 'gzip')
    const identity = await wireBytes(url, 'identity')
    out.push({
      path,
      browser,
      gzip: gzip.encoding === 'gzip' ? gzip.bytes : null,
      identity: identity.bytes,
    })
  }
  return out
}
