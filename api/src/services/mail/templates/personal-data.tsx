// Mails of a personal data request (152-ФЗ, /info/personal-data): the confirmation link that
// proves the mailbox, and, once it was opened, the deadline of the answer.
import { DATA_REQUEST_CONFIRM_PATH, dataRequestToken, getDataRequest } from '../../personal-data/requests'
import { fill, M } from '../messages'
import { Action, Layout, Muted, P } from './layout'
import type { Template } from './types'

/** «27 ноября 2026» from a calendar date. */
const formatDay = (day: string) =>
  new Intl.DateTimeFormat('ru-RU', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${day}T00:00:00Z`))

export const dataRequestConfirm: Template<'data_request_confirm'> = async (data, ctx) => {
  const shop = ctx.shop ?? M.shop
  const token = dataRequestToken(ctx.config.jwtSecret, data.requestId)
  return {
    subject: M.data_request.confirm_subject,
    body: (
      <Layout
        preview={M.data_request.confirm_preview}
        heading={M.data_request.confirm_heading}
        publicUrl={ctx.config.publicUrl}
      >
        <P>{fill(M.data_request.confirm_intro, { shop, kind: M.data_request.kinds[data.kind] })}</P>
        <Action href={`${ctx.config.publicUrl}${DATA_REQUEST_CONFIRM_PATH}?token=${token}`}>
          {M.data_request.confirm_button}
        </Action>
        <Muted>{fill(M.data_request.confirm_expires, { hours: data.expiresInHours })}</Muted>
        <Muted>{M.data_request.confirm_ignore}</Muted>
      </Layout>
    ),
  }
}

export const dataRequestAccepted: Template<'data_request_accepted'> = async (data, ctx) => {
  const row = await getDataRequest(ctx.db, data.requestId)
  if (!row?.dueDate) return null
  const date = formatDay(row.dueDate)
  return {
    subject: M.data_request.accepted_subject,
    body: (
      <Layout
        preview={fill(M.data_request.accepted_preview, { date })}
        heading={M.data_request.accepted_heading}
        publicUrl={ctx.config.publicUrl}
      >
        <P>
          {fill(M.data_request.accepted_intro, {
            shop: ctx.shop ?? M.shop,
            kind: M.data_request.kinds[row.kind],
          })}
        </P>
        <P>{fill(M.data_request.accepted_deadline, { date })}</P>
      </Layout>
    ),
  }
}
