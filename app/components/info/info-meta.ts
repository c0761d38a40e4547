import type { MetaFunction } from '@remix-run/node'
import { createT, type Messages, type TFunction } from '#app/i18n/translate'

/** A translator for `meta` functions, from the messages the root loader sent. */
export function infoMetaT(matches: Parameters<MetaFunction>[0]['matches']): TFunction {
  const root = matches.find((m) => m.id === 'root')?.data as
    | { messages?: Messages; locale?: string }
    | undefined
  return createT(root?.messages ?? {}, root?.locale ?? 'ru')
}
