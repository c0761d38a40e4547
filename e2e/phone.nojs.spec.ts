// Every screen on a 360 px phone as the server sends it, JavaScript off: the same layout checks
// as phone.spec.ts (axe needs JavaScript; a11y.spec.ts audits the server-rendered pages).
import { test } from '@playwright/test'
import { phoneOrderCard, phoneOwnerScreens, phoneScreens } from './phone-steps'

test.describe('phone layout, JavaScript off', () => phoneScreens(false))
test.describe('the back-office on a phone, JavaScript off', () => phoneOwnerScreens(false))
test.describe('the order card on a phone, JavaScript off', () => phoneOrderCard())
