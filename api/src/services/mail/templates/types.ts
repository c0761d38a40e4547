import type { ReactElement } from 'react'
import type { Db } from '../../../db/client'
import type { ApiConfig } from '../../../env'
import type { MailDataMap, MailTemplate } from '../outbox'

/** What a template reads when the mail is sent. */
export interface RenderContext {
  db: Db
  config: Pick<ApiConfig, 'publicUrl' | 'jwtSecret'> & Partial<Pick<ApiConfig, 'telegram' | 'shopTimeZone'>>
  /** The recipient (templates never print it, but the order look-up signs its link for it). */
  to: string
  now: Date
  /** The shop's name from the owner's settings (renderMail fills it; the default is M.shop). */
  shop?: string
  /** Demo mode (the default name «ИгроМаркет» is the demo's only); senders pass config.demo. */
  demo?: boolean
  /** The shop's time zone every time in the mail is written in (renderMail fills it, decision 136). */
  timeZone?: string
  /** The line under the shop's name (renderMail fills it from the settings, issue 47). */
  tagline?: string
}

/** A template's answer: the subject and the body, and the order it is about (for the mail log). */
export interface MailContent {
  subject: string
  body: ReactElement
  orderId?: string
}

/** Builds a mail from its data, read fresh; null when there is nothing to send any more. */
export type Template<T extends MailTemplate> = (
  data: MailDataMap[T],
  ctx: RenderContext,
) => Promise<MailContent | null>
