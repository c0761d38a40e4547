// A small reader of the mails the shop writes (nodemailer's multipart/alternative with base64 or
// quoted-printable parts, RFC 2047 headers): enough for tests, e2e and the mail benchmark.

export interface ReadMail {
  headers: Map<string, string>
  subject: string
  to: string
  messageId: string
  text: string
  html: string
}

function splitHead(raw: string): [string, string] {
  const i = raw.search(/\r?\n\r?\n/)
  if (i < 0) return [raw, '']
  const sep = raw.slice(i).match(/^\r?\n\r?\n/)![0]
  return [raw.slice(0, i), raw.slice(i + sep.length)]
}

function parseHeaders(head: string): Map<string, string> {
  const out = new Map<string, string>()
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const c = line.indexOf(':')
    if (c > 0) out.set(line.slice(0, c).trim().toLowerCase(), line.slice(c + 1).trim())
  }
  return out
}

/** RFC 2047 encoded words (=?UTF-8?B?…?= and =?UTF-8?Q?…?=). */
export function decodeWords(v: string): string {
  return v
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([BQbq])\?([^?]*)\?=/g, (_, _cs: string, enc: string, data: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : Buffer.from(
            data
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
            'latin1',
          ).toString('utf8'),
    )
}

function decodeBody(body: string, encoding: string | undefined): string {
  const enc = (encoding ?? '7bit').toLowerCase()
  if (enc === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
  if (enc === 'quoted-printable')
    return Buffer.from(
      body
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
      'latin1',
    ).toString('utf8')
  return body
}

function walk(raw: string, into: { text: string; html: string }) {
  const [head, body] = splitHead(raw)
  const h = parseHeaders(head)
  const type = h.get('content-type') ?? 'text/plain'
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1]
  if (/^multipart\//i.test(type) && boundary) {
    const parts = body.split(`--${boundary}`).slice(1)
    for (const part of parts) {
      if (part.startsWith('--')) break
      walk(part.replace(/^\r?\n/, ''), into)
    }
    return
  }
  const decoded = decodeBody(body, h.get('content-transfer-encoding'))
  if (/^text\/html/i.test(type)) into.html += decoded
  else if (/^text\/plain/i.test(type)) into.text += decoded
}

export function readMail(raw: string): ReadMail {
  const [head] = splitHead(raw)
  const headers = parseHeaders(head)
  const parts = { text: '', html: '' }
  walk(raw, parts)
  return {
    headers,
    subject: decodeWords(headers.get('subject') ?? ''),
    to: decodeWords(headers.get('to') ?? ''),
    messageId: headers.get('message-id') ?? '',
    text: parts.text,
    html: parts.html,
  }
}
