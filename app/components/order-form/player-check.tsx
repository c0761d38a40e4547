// The player check on the order form: with JavaScript the nickname appears as soon as the id (and
// server) is complete; without it the action answers the first submit with a confirmation step.
import { useFetcher } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'
import { useT } from '#app/i18n/i18n-context'
import { FIELD } from '#app/lib/order-form/fields'
import type { PlayerConfirmation } from './product-page.server'

/** What the live check looks at: the id field of the kind and the server fields of the form. */
export interface PlayerInputs {
  userId: string
  serverId: string
  serverCustomId: string
}

export type LiveAnswer =
  | { state: 'found'; nickname: string; key: string }
  | { state: 'refused'; message: string; key: string }
  | { state: 'unavailable'; message: string; key: string }
  | { state: 'none'; key: string }

/** Typing pauses this long before the check is asked. */
const DEBOUNCE_MS = 400

export function playerKeyOf(q: PlayerInputs): string {
  return [q.userId.trim(), q.serverId.trim(), q.serverCustomId.trim()].join('|')
}

/**
 * Live nickname under the account fields. `complete` says whether every field the game needs is
 * filled. A found (or unanswered) check is handed to the action as `player_checked`, so the submit
 * goes straight to the order.
 */
export function LivePlayerCheck({
  gameId,
  inputs,
  complete,
  onAnswer,
}: {
  gameId: number
  inputs: PlayerInputs
  complete: boolean
  /** Told each answer for the current id (or null while there is none). */
  onAnswer: (answer: LiveAnswer | null) => void
}) {
  const t = useT()
  const fetcher = useFetcher<LiveAnswer>()
  const key = playerKeyOf(inputs)
  const [asked, setAsked] = useState<string | null>(null)
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  const { load } = fetcher

  useEffect(() => {
    if (timer.current) clearTimeout(timer.current)
    if (!complete || key === asked) return
    timer.current = setTimeout(() => {
      const q = new URLSearchParams({
        user_id: inputs.userId.trim(),
        server_id: inputs.serverId.trim(),
        server_custom_id: inputs.serverCustomId.trim(),
      })
      setAsked(key)
      load(`/products/${gameId}/player?${q}`)
    }, DEBOUNCE_MS)
    return () => {
      if (timer.current) clearTimeout(timer.current)
    }
  }, [complete, key, asked, gameId, inputs, load])

  const answer = fetcher.data && fetcher.data.key === key && complete ? fetcher.data : null
  useEffect(() => onAnswer(answer), [answer, onAnswer])
  const checking = complete && (fetcher.state === 'loading' || (key !== asked && !answer))
  let text: string | null = null
  let tone = ''
  if (answer?.state === 'found') {
    text = t('top_up_balance.player.found', { nickname: answer.nickname })
    tone = 'found'
  } else if (answer?.state === 'refused') {
    text = answer.message
    tone = 'refused'
  } else if (answer?.state === 'unavailable') {
    text = t('top_up_balance.player.unavailable')
    tone = 'warning'
  } else if (checking) text = t('top_up_balance.player.checking')

  return (
    <>
      <p className={`player-check${tone ? ` player-check--${tone}` : ''}`} role="status" aria-live="polite">
        {text}
      </p>
      {answer && (answer.state === 'found' || answer.state === 'unavailable') ? (
        <input type="hidden" name={FIELD.playerChecked} value={answer.key} />
      ) : null}
    </>
  )
}

/**
 * The confirmation step (the action's answer to a first submit): «Игрок: … — всё верно?». Its texts
 * come with the answer (the page's messages may lack them: see `PlayerConfirmation.texts`).
 */
export function PlayerConfirm({ player, busy }: { player: PlayerConfirmation; busy: boolean }) {
  const { texts } = player
  return (
    <section className="player-confirm" aria-labelledby="player-confirm-heading">
      <h3 id="player-confirm-heading">{texts.heading}</h3>
      {player.state === 'found' ? (
        <p className="player-confirm__question" role="status">
          {texts.question}
        </p>
      ) : (
        <p className="player-confirm__warning" role="alert">
          {texts.question}
        </p>
      )}
      <p className="field__hint">{texts.changeHint}</p>
      <input type="hidden" name={FIELD.playerChecked} value={player.key} />
      {player.avatarData ? <input type="hidden" name={FIELD.avatarData} value={player.avatarData} /> : null}
      {/* biome-ignore lint/a11y/noAutofocus: the step's one question, also without JavaScript */}
      <button type="submit" className="button button--primary" disabled={busy} autoFocus>
        {texts.confirm}
      </button>
    </section>
  )
}
