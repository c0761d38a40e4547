// A real SMTP server for tests (smtp-server) on a free local port: it keeps every mail it accepts,
// checks a password, and can be told to refuse mails (4xx or 5xx) or be stopped and started again
// on the same port to play an outage.
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'
import { type ReadMail, readMail } from './mime'

export interface ReceivedMail extends ReadMail {
  envelopeTo: string[]
  raw: string
}

export interface TestSmtp {
  url: string
  port: number
  received: ReceivedMail[]
  /** 'accept' (default), or refuse every mail with a temporary (451) or permanent (550) error. */
  mode: 'accept' | 'refuse-temporary' | 'refuse-permanent'
  /** Stops listening (connections are refused: the server is down). */
  stop(): Promise<void>
  /** Listens again on the same port (nothing when it listens already). */
  start(): Promise<void>
  /** Resolves when `n` mails were received (or rejects after `timeoutMs`). */
  waitFor(n: number, timeoutMs?: number): Promise<ReceivedMail[]>
}

export const SMTP_USER = 'shop'
export const SMTP_PASS = 'smtp-test-password'

export async function startTestSmtp(): Promise<TestSmtp> {
  const received: ReceivedMail[] = []
  let server: SMTPServer | null = null
  let port = 0
  const api: TestSmtp = {
    url: '',
    port: 0,
    received,
    mode: 'accept',
    async stop() {
      const s = server
      server = null
      if (s) await new Promise<void>((r) => s.close(() => r()))
    },
    async start() {
      if (server) return
      const s = new SMTPServer({
        // plain text on loopback: no STARTTLS offered, so the client sends at once
        disabledCommands: ['STARTTLS'],
        allowInsecureAuth: true,
        authMethods: ['PLAIN', 'LOGIN'],
        closeTimeout: 100,
        logger: false,
        onAuth(auth, _session, cb) {
          if (auth.username === SMTP_USER && auth.password === SMTP_PASS) cb(null, { user: auth.username })
          else cb(new Error('Invalid username or password'))
        },
        onData(stream, session, cb) {
          const chunks: Buffer[] = []
          stream.on('data', (c: Buffer) => chunks.push(c))
          stream.on('end', () => {
            if (api.mode !== 'accept') {
              const err = Object.assign(
                new Error(`Mailbox unavailable for ${session.envelope.rcptTo[0]?.address}`),
                {
                  responseCode: api.mode === 'refuse-temporary' ? 451 : 550,
                },
              )
              cb(err)
              return
            }
            const raw = Buffer.concat(chunks).toString('utf8')
            received.push({
              ...readMail(raw),
              raw,
              envelopeTo: session.envelope.rcptTo.map((r) => r.address),
            })
            cb()
          })
        },
      })
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject)
        s.listen(port, '127.0.0.1', () => resolve())
      })
      s.on('error', () => {})
      server = s
      port = (s.server.address() as AddressInfo).port
      api.port = port
      api.url = `smtp://${SMTP_USER}:${SMTP_PASS}@127.0.0.1:${port}`
    },
    async waitFor(n, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs
      while (received.length < n) {
        if (Date.now() > until) throw new Error(`expected ${n} mails, got ${received.length}`)
        await new Promise((r) => setTimeout(r, 20))
      }
      return received
    },
  }
  await api.start()
  return api
}
