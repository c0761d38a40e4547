// The account's promo code in the profile as plain HTML forms, JavaScript off (account-promo-steps.ts).
import { test } from '@playwright/test'
import { accountPromoSteps } from './account-promo-steps'

test.describe('account promo code, JavaScript off', () => accountPromoSteps())
