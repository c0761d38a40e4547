// Every screen on a 360 px phone, with JavaScript: no horizontal scroll (also at 320, 768 and
// 1280 px), a one-row header, tap targets and text sizes a thumb and an eye can use, nothing
// under a fixed bar, and axe clean at 360 px. The steps live in phone-steps.ts.
import { test } from '@playwright/test'
import { phoneOrderCard, phoneOwnerScreens, phoneScreens } from './phone-steps'

test.describe('phone layout, JavaScript on', () => phoneScreens(true))
test.describe('the back-office on a phone, JavaScript on', () => phoneOwnerScreens(true))
test.describe('the order card on a phone, JavaScript on', () => phoneOrderCard())
