// «Изменить заказ» on the payment page as plain HTML forms, JavaScript off (order-edit-steps.ts).
import { test } from '@playwright/test'
import { orderEditSteps } from './order-edit-steps'

test.describe('editing an unpaid order, JavaScript off', () => orderEditSteps())
