// The game page's trust lines, low stock and a refusal on its pack, JavaScript off (issue 50).
import { gameTrust } from './game-trust-steps'

gameTrust(false)
