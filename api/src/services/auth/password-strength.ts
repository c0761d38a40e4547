// New passwords (sign-up, reset, change): 8–128 characters (the request schemas) and not easy to
// guess. zxcvbn-ts estimates the guesses an attacker needs, with its list of common and leaked
// passwords and the account's own email as known words; a score under 2 (about 10^6 guesses or
// fewer) is refused with a Russian reason. No composition rules (ASVS 5.0 V6.2).
import { ZxcvbnFactory } from '@zxcvbn-ts/core'
import * as common from '@zxcvbn-ts/language-common'
import { fieldError, type MessageCode } from '../../lib/errors'

export const MIN_PASSWORD_SCORE = 2

let checker: ZxcvbnFactory | null = null
const zxcvbn = () => {
  checker ??= new ZxcvbnFactory({ dictionary: { ...common.dictionary }, graphs: common.adjacencyGraphs })
  return checker
}

/** zxcvbn's warning keys, grouped under our Russian messages. */
const REASONS: Record<string, MessageCode> = {
  topTen: 'password_weak_common',
  topHundred: 'password_weak_common',
  common: 'password_weak_common',
  similarToCommon: 'password_weak_common',
  pwned: 'password_weak_common',
  userInputs: 'password_weak_email',
  straightRow: 'password_weak_keyboard',
  keyPattern: 'password_weak_keyboard',
  simpleRepeat: 'password_weak_repeat',
  extendedRepeat: 'password_weak_repeat',
  sequences: 'password_weak_sequence',
  recentYears: 'password_weak_dates',
  dates: 'password_weak_dates',
  wordByItself: 'password_weak_word',
  namesByThemselves: 'password_weak_word',
  commonNames: 'password_weak_word',
}

/** Null when the password is strong enough, else the message code that says why not. */
export function passwordWeakness(password: string, knownWords: readonly string[] = []): MessageCode | null {
  // the estimate's cost grows with length; anything this long is not guessable anyway
  if (password.length >= 64) return null
  const words = knownWords.flatMap((w) => [
    w,
    w.split('@')[0] ?? w,
    ...w.split(/[@.+_-]/).filter((p) => p.length >= 3),
  ])
  const result = zxcvbn().check(password, words)
  if (result.score >= MIN_PASSWORD_SCORE) return null
  return REASONS[result.feedback.warning ?? ''] ?? 'password_weak'
}

/** Throws a 400 on `field` when the password is too easy to guess. */
export function assertStrongPassword(
  password: string,
  knownWords: readonly string[],
  field = 'password',
): void {
  const weakness = passwordWeakness(password, knownWords)
  if (weakness) throw fieldError(field, weakness)
}
