// The Telegram Bot API adapter (https://core.telegram.org/bots/api): every call is a JSON POST to
// <TELEGRAM_API_URL>/bot<token>/<method>, answered `{ok, result}` or `{ok: false, error_code,
// description, parameters: {retry_after}}`. The token is part of the address, so no error or log
// line made here carries the address: only the method and Telegram's own description.
import type { ApiDeps } from '../../context'
import type { TelegramConfig } from '../../env'

/** The parts of Telegram's types the shop reads. */
export interface TgUser {
  id: number
  is_bot?: boolean
  first_name?: string
  last_name?: string
  username?: string
}
export interface TgMessage {
  message_id: number
  chat: { id: number; type: string }
  from?: TgUser
  text?: string
  reply_to_message?: { message_id: number }
}
export interface TgCallbackQuery {
  id: string
  from: TgUser
  message?: TgMessage
  data?: string
}
export interface TgUpdate {
  update_id: number
  message?: TgMessage
  callback_query?: TgCallbackQuery
}
export interface InlineButton {
  text: string
  callback_data: string
}
export type ReplyMarkup =
  | { inline_keyboard: InlineButton[][] }
  | { force_reply: true; input_field_placeholder?: string }

/** A call Telegram refused or that did not reach it; `retryAfter` (seconds) on 429. */
export class TelegramError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    description: string,
    readonly retryAfter: number | null = null,
  ) {
    super(`telegram ${method}: ${code} ${description}`)
    this.name = 'TelegramError'
  }
}

const TIMEOUT_MS = 10_000

/** Calls one Bot API method; throws TelegramError (never an error naming the address). */
export async function callBot<T>(
  deps: Pick<ApiDeps, 'fetch'> & { config: { telegram: TelegramConfig | null } },
  method: string,
  params: Record<string, unknown>,
  opts: { timeoutMs?: number } = {},
): Promise<T> {
  const tg = deps.config.telegram
  if (!tg) throw new TelegramError(method, 0, 'TELEGRAM_BOT_TOKEN is not set')
  let res: Response
  try {
    res = await deps.fetch(`${tg.apiUrl}/bot${tg.token}/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(params),
      signal: AbortSignal.timeout(opts.timeoutMs ?? TIMEOUT_MS),
    })
  } catch (err) {
    // a network error's text may quote the address (and so the token): keep only its kind
    const kind = err instanceof Error ? err.name : 'Error'
    throw new TelegramError(method, 0, `not reached (${kind})`)
  }
  const body = (await res.json().catch(() => null)) as {
    ok?: boolean
    result?: T
    error_code?: number
    description?: string
    parameters?: { retry_after?: number }
  } | null
  if (body?.ok === true) return body.result as T
  const retryAfter = body?.parameters?.retry_after ?? null
  const description = (body?.description ?? res.statusText ?? '').split(tg.token).join('<token>')
  throw new TelegramError(method, body?.error_code ?? res.status, description.slice(0, 300), retryAfter)
}

/** The bot's username (for t.me links), asked once per process: it never changes for a token. */
const usernames = new Map<string, Promise<string>>()
export function botUsername(deps: Parameters<typeof callBot>[0]): Promise<string> {
  const tg = deps.config.telegram
  if (!tg) return Promise.reject(new TelegramError('getMe', 0, 'TELEGRAM_BOT_TOKEN is not set'))
  const key = `${tg.apiUrl}|${tg.token}`
  let p = usernames.get(key)
  if (!p) {
    p = callBot<TgUser>(deps, 'getMe', {}).then((me) => me.username ?? '')
    p.catch(() => usernames.delete(key))
    usernames.set(key, p)
  }
  return p
}
