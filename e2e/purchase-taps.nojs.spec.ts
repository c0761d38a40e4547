// A guest's purchase counted in taps at 360×740, JavaScript off (issue 50); the steps are in
// purchase-taps-steps.ts.
import { test } from '@playwright/test'
import { purchaseTaps } from './purchase-taps-steps'

test.describe('purchase in taps, JavaScript off', () => purchaseTaps(false))
