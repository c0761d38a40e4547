// Guest orders joining the history, JavaScript on (account-guest-orders-steps.ts).
import { test } from '@playwright/test'
import { guestOrdersJoinSteps } from './account-guest-orders-steps'

test.describe('guest orders in the account, JavaScript on', () => guestOrdersJoinSteps())
