// SBP through YooKassa with JavaScript, at 360 px and 1280 px (steps: yookassa-sbp-steps.ts).
import { test } from '@playwright/test'
import { buyerPaysBySbp, ownerAddsSbpMethod } from './yookassa-sbp-steps'

for (const width of [360, 1280]) {
  test(`owner adds YooKassa SBP, a buyer pays by QR and checks the payment (${width} px)`, async ({
    page,
    context,
    request,
  }) => {
    await page.setViewportSize({ width, height: 800 })
    const title = await ownerAddsSbpMethod(page, context, request)
    await buyerPaysBySbp(page, context, request, title, width < 500)
  })
}
