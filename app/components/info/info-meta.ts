import type { MetaFunction } from '@remix-run/node'
import { createT, readMessages, type TFunction } from '#app/i18n/translate'

/** A translator for `meta` functions, from the messages the root loader sent. */
export function infoMetaT(matches: Parameters<MetaFunction>[0]['matches']): TFunction {
  const root = matches.find((m) => m.id === 'root')?.data as
    | { messages?: string; locale?: string }
    | undefined
  return createT(readMessages(root?.messages), root?.locale ?? 'ru')
}
