// The game page's first screen at 360×740 as the server sends it, JavaScript off (issue 50); the
// steps are in game-first-screen-steps.ts.
import { test } from '@playwright/test'
import { gameFirstScreen } from './game-first-screen-steps'

test.describe('game page first screen, JavaScript off', () => gameFirstScreen(false))
