// The account's promo code in the profile, JavaScript on: the steps live in account-promo-steps.ts.
import { test } from '@playwright/test'
import { accountPromoSteps } from './account-promo-steps'

test.describe('account promo code, JavaScript on', () => accountPromoSteps())
