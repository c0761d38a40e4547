// QR codes drawn on our server as SVG (no external QR service sees the payment data).
// qrcode-svg does the encoding; we draw the modules ourselves as one <path> with presentation
// attributes, because its own markup uses `style="..."` attributes that the page's CSP
// (style-src 'self') would block when the SVG is inlined.
import QRCode from 'qrcode-svg'

/** Modules of white border around the code, as the QR standard asks for. */
export const QUIET_ZONE = 4

export interface QrImage {
  /** Side of the image in modules, quiet zone included (the SVG viewBox is 0 0 size size). */
  size: number
  /** Dark modules as an SVG path: one `M{x} {y}h{n}v1h-{n}z` per horizontal run. */
  path: string
}

/** The module matrix of `text` (rows of booleans, true = dark), error correction level M. */
export function qrMatrix(text: string): boolean[][] {
  if (text.length === 0) throw new RangeError('Nothing to encode in a QR code')
  const code = new QRCode({ content: text, ecl: 'M', padding: 0, join: true })
  return code.qrcode.modules.map((row) => row.map((dark) => dark === true))
}

/** The drawing of a QR code: deterministic for the same text. */
export function qrImage(text: string): QrImage {
  const modules = qrMatrix(text)
  const runs: string[] = []
  modules.forEach((row, y) => {
    let x = 0
    while (x < row.length) {
      if (!row[x]) {
        x++
        continue
      }
      const start = x
      while (x < row.length && row[x]) x++
      runs.push(`M${start + QUIET_ZONE} ${y + QUIET_ZONE}h${x - start}v1h-${x - start}z`)
    }
  })
  return { size: modules.length + 2 * QUIET_ZONE, path: runs.join('') }
}

/** A standalone SVG document of the code (black on white, crisp edges, scales to any size). */
export function qrSvg(text: string, label = 'QR'): string {
  const { size, path } = qrImage(text)
  const escaped = label.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" role="img" aria-label="${escaped}" shape-rendering="crispEdges">` +
    `<rect width="${size}" height="${size}" fill="#fff"/>` +
    `<path fill="#000" d="${path}"/>` +
    '</svg>'
  )
}
