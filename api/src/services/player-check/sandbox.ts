import type { PlayerAnswer, PlayerLookup } from './types'

export const SANDBOX_PLAYER_FOUND = '100000001'
export const SANDBOX_PLAYER_MISSING = '100000000'

/**
 * The demo's offline look-up: 100000001 is «Тестовый игрок», 100000000 does not exist, any other
 * id of 6–12 digits is «Игрок <id>», anything else is malformed.
 */
export const sandboxLookup: PlayerLookup = {
  name: 'sandbox',
  needsRef: false,
  async lookup({ userId }): Promise<PlayerAnswer> {
    if (!/^\d{6,12}$/.test(userId)) return { outcome: 'malformed' }
    if (userId === SANDBOX_PLAYER_MISSING) return { outcome: 'not_found' }
    if (userId === SANDBOX_PLAYER_FOUND) return { outcome: 'found', nickname: 'Тестовый игрок' }
    return { outcome: 'found', nickname: `Игрок ${userId}` }
  },
}
