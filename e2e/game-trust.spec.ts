// The game page's trust lines, low stock and a refusal on its pack, JavaScript on (issue 50);
// the taps before the scripts start are in before-hydration.spec.ts.
import { gameTrust } from './game-trust-steps'

gameTrust(true)
