// Guest orders joining the history, JavaScript off (account-guest-orders-steps.ts).
import { test } from '@playwright/test'
import { guestOrdersJoinSteps } from './account-guest-orders-steps'

test.describe('guest orders in the account, JavaScript off', () => guestOrdersJoinSteps())
