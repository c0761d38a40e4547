// Requests about personal data (152-ФЗ) from /info/personal-data: a person names an email, the kind
// of request and a text; the shop mails a link to that email (proof that the person owns the
// mailbox). Only the link makes the request a task for staff, due in 10 working days, and mails the
// deadline. The link's token is an HMAC of the row id made when the mail is rendered; the row keeps
// only its SHA-256 and an expiry. Staff mark a task done, audited.
import { createHash, createHmac, randomUUID } from 'node:crypto'
import { and, asc, desc, eq, gt, ne } from 'drizzle-orm'
import type { ApiDeps } from '../../context'
import type { Db } from '../../db/client'
import { type DataRequestKind, type DataRequestStatus, dataRequests } from '../../db/schema'
import { audit } from '../admin/audit'
import type { StaffMember } from '../admin/roles'
import { normalizeEmail } from '../auth/accounts'
import { queueMail } from '../mail/outbox'
import { hitRateLimits, type RateLimitResult } from '../rate-limit'
import { addWorkingDays, DATA_REQUEST_WORKING_DAYS } from './working-days'

/** The kinds of request (the back-office filters by them). */
export { DATA_REQUEST_KINDS } from '../../db/schema'

/** How long the confirmation link works. */
export const DATA_REQUEST_LINK_HOURS = 48
/** The storefront page the link opens (the mail adds `?token=`). */
export const DATA_REQUEST_CONFIRM_PATH = '/info/personal-data/confirm'

/** Requests per client address and per email (from any address) in an hour. */
export const DATA_REQUEST_LIMITS = { perAddress: 10, perEmail: 3, windowSeconds: 3600 }

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')

/** The link token of a request row (43 base64url characters). */
export const dataRequestToken = (secret: string, id: string) =>
  createHmac('sha256', secret).update(`data-request:${id}`).digest('base64url')

/** A stable pseudonym of an email for the rate-limit keys (no addresses in that table). */
const emailTag = (secret: string, email: string) =>
  createHmac('sha256', secret).update(`data-request:${email}`).digest('hex').slice(0, 32)

/**
 * Counts the request against the client address and the email, stores it unconfirmed and queues
 * the confirmation mail. Returns the refused limit, or null when the request was taken.
 */
export async function createDataRequest(
  deps: ApiDeps,
  input: { email: string; kind: DataRequestKind; text: string },
  address: string,
  now = new Date(),
): Promise<RateLimitResult | null> {
  const { db, config } = deps
  const email = normalizeEmail(input.email)
  const refused = await hitRateLimits(
    db,
    [
      [`pdreq:address:${address}`, DATA_REQUEST_LIMITS.perAddress],
      [`pdreq:email:${emailTag(config.jwtSecret, email)}`, DATA_REQUEST_LIMITS.perEmail],
    ],
    DATA_REQUEST_LIMITS.windowSeconds,
    now,
  )
  if (refused) return refused
  const id = randomUUID()
  await db.transaction(async (tx) => {
    await tx.insert(dataRequests).values({
      id,
      email,
      kind: input.kind,
      text: input.text,
      tokenHash: hashToken(dataRequestToken(config.jwtSecret, id)),
      tokenExpiresAt: new Date(now.getTime() + DATA_REQUEST_LINK_HOURS * 3600 * 1000),
      clientAddress: address,
      created: now,
    })
    await queueMail(tx, {
      template: 'data_request_confirm',
      to: email,
      key: `data_request_confirm:${id}`,
      data: { requestId: id, kind: input.kind, expiresInHours: DATA_REQUEST_LINK_HOURS },
    })
  })
  deps.jobs?.wake()
  return null
}

export interface ConfirmedRequest {
  kind: DataRequestKind
  status: DataRequestStatus
  dueDate: string
}

const isTokenShaped = (token: string) => /^[A-Za-z0-9_-]{43}$/.test(token)

/**
 * Opens a confirmation link: the request becomes an open task due in 10 working days, and the
 * requester is mailed the deadline. Opening it again answers the same request (no second task or
 * mail). Null when the link is unknown or expired before it was used.
 */
export async function confirmDataRequest(deps: ApiDeps, token: string, now = new Date()) {
  if (!isTokenShaped(token)) return null
  const { db } = deps
  const answer = await db.transaction(async (tx): Promise<ConfirmedRequest | null> => {
    const dueDate = addWorkingDays(now, DATA_REQUEST_WORKING_DAYS)
    const [opened] = await tx
      .update(dataRequests)
      .set({ status: 'open', confirmedAt: now, dueDate })
      .where(
        and(
          eq(dataRequests.tokenHash, hashToken(token)),
          eq(dataRequests.status, 'unconfirmed'),
          gt(dataRequests.tokenExpiresAt, now),
        ),
      )
      .returning()
    if (opened) {
      await queueMail(tx, {
        template: 'data_request_accepted',
        to: opened.email,
        key: `data_request_accepted:${opened.id}`,
        data: { requestId: opened.id },
      })
      return { kind: opened.kind, status: opened.status, dueDate }
    }
    // a second click on a link that already worked
    const [known] = await tx
      .select()
      .from(dataRequests)
      .where(and(eq(dataRequests.tokenHash, hashToken(token)), ne(dataRequests.status, 'unconfirmed')))
    return known?.dueDate ? { kind: known.kind, status: known.status, dueDate: known.dueDate } : null
  })
  if (answer) deps.jobs?.wake()
  return answer
}

export type DataRequestRow = typeof dataRequests.$inferSelect

export async function getDataRequest(db: Db, id: string): Promise<DataRequestRow | undefined> {
  const [row] = await db.select().from(dataRequests).where(eq(dataRequests.id, id))
  return row
}

/** Staff's list: confirmed requests, the open ones by deadline first, then the done ones, newest first. */
export async function listDataRequests(db: Db, status: 'open' | 'done', limit = 100) {
  return db
    .select()
    .from(dataRequests)
    .where(eq(dataRequests.status, status))
    .orderBy(
      ...(status === 'open'
        ? [asc(dataRequests.dueDate), asc(dataRequests.created)]
        : [desc(dataRequests.doneAt)]),
    )
    .limit(limit)
}

/** Marks an open request done (audited); null when there is no open request with that id. */
export async function markDataRequestDone(
  db: Db,
  actor: StaffMember,
  id: string,
  note: string,
  now = new Date(),
) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(dataRequests)
      .set({ status: 'done', doneAt: now, doneBy: actor.userId, note: note || null })
      .where(and(eq(dataRequests.id, id), eq(dataRequests.status, 'open')))
      .returning()
    if (!row) return null
    await audit(tx, actor, {
      action: 'data_request.done',
      entity: 'data_request',
      entityId: id,
      before: { status: 'open' },
      after: { status: 'done', note: note || null },
    })
    return row
  })
}
