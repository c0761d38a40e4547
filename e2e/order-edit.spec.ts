// «Изменить заказ» on the payment page with JavaScript: the steps live in order-edit-steps.ts.
import { test } from '@playwright/test'
import { orderEditSteps } from './order-edit-steps'

test.describe('editing an unpaid order, JavaScript on', () => orderEditSteps())
