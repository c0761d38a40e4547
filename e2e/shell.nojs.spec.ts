import { expect, test } from '@playwright/test'

test('a form post’s result shows as a toast without JavaScript, and the queue still plays in turn', async ({
  page,
}) => {
  await page.goto('/e2e/toasts')
  await page.getByRole('button', { name: 'Post two errors and a success' }).click()
  await expect(page).toHaveURL(/\/e2e\/toasts$/)

  const alert = page.getByRole('region', { name: 'Уведомления' }).getByRole('alert')
  await expect(alert.getByText('First error')).toBeVisible()
  await expect(alert.getByText('Second error')).toBeHidden()
  // without a script to close it, CSS ends the first toast and shows the next
  await expect(alert.getByText('Second error')).toBeVisible({ timeout: 10_000 })
  await expect(alert.getByText('First error')).toBeHidden()

  await page.reload()
  await expect(page.locator('.toast')).toHaveCount(0)
})

test('the notification area is on every page', async ({ page }) => {
  for (const path of ['/', '/gifts', '/no/such/page']) {
    await page.goto(path)
    const area = page.getByRole('region', { name: 'Уведомления' })
    await expect(area).toBeAttached()
    await expect(area.getByRole('status')).toBeAttached()
    await expect(area.getByRole('alert')).toBeAttached()
  }
})
