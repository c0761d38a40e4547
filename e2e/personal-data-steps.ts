// A personal data request (152-ФЗ, issue 33) in the browser, at 360 px: the form refuses what is
// missing, mails a confirmation link; the link's button makes it a task with a deadline (and a
// mail saying so); support sees it in «Запросы о данных» and marks it done.
import { type APIRequestContext, type BrowserContext, expect, type Page } from '@playwright/test'
import { SUPPORT, signInAs } from './admin-helpers'
import { linkIn, waitForMail } from './mail-steps'

const noSideScroll = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)

export async function personalDataRequest(page: Page, context: BrowserContext, request: APIRequestContext) {
  await page.setViewportSize({ width: 360, height: 780 })
  const email = `pd-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`
  await page.goto('/')
  await page.getByRole('contentinfo').getByRole('link', { name: 'Запрос о персональных данных' }).click()
  await expect(page).toHaveURL(/\/info\/personal-data$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Запрос о персональных данных' })).toBeVisible()
  await noSideScroll(page)

  // nothing chosen: refused on the fields, in Russian
  await page.getByRole('button', { name: 'Отправить запрос' }).click()
  await expect(page.getByText('Введите корректный адрес электронной почты')).toBeVisible()
  await expect(page.getByText('Выберите, о чём запрос')).toBeVisible()

  await page.getByLabel('Электронная почта').fill(email)
  await page.getByLabel('Удалить мои данные').check()
  await page.getByLabel('Подробности').fill('Удалите, пожалуйста, мою почту и заказы')
  await page.getByRole('button', { name: 'Отправить запрос' }).click()
  const sent = page.getByRole('status').filter({ hasText: 'Проверьте почту' })
  await expect(sent).toContainText('Мы отправили письмо со ссылкой')
  await expect(sent).toContainText(email)

  const mail = await waitForMail(email, /^Подтвердите запрос о персональных данных$/)
  expect(mail.text).toContain('удалить данные')
  const link = linkIn(mail, /\/info\/personal-data\/confirm\?token=/)

  // opening the link alone confirms nothing; its button does
  await page.goto(link)
  await expect(page.getByRole('heading', { level: 1, name: 'Подтверждение запроса' })).toBeVisible()
  await noSideScroll(page)
  await page.getByRole('button', { name: 'Подтвердить запрос' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Запрос принят' })).toBeVisible()
  await expect(page.getByTestId('data-request-due')).toContainText(/не позднее \d{1,2} [а-я]+ \d{4}/)
  const accepted = await waitForMail(email, /^Запрос о персональных данных принят$/)
  expect(accepted.text).toMatch(/не позднее \d{1,2} [а-я]+ \d{4}/)
  expect(accepted.text).toContain('10 рабочих дней')

  // an altered link opens nothing
  await page.goto(`${link.slice(0, -3)}AAA`)
  await page.getByRole('button', { name: 'Подтвердить запрос' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Ссылка не работает' })).toBeVisible()

  // support: the task with its deadline, marked done
  await signInAs(context, request, SUPPORT)
  await page.goto('/admin')
  await page
    .getByRole('navigation', { name: 'Разделы управления' })
    .getByRole('link', { name: 'Запросы о данных' })
    .click()
  await expect(page.getByRole('heading', { level: 1, name: 'Запросы о персональных данных' })).toBeVisible()
  const card = page.getByRole('listitem').filter({ hasText: email })
  await expect(card.getByRole('heading', { name: 'Удалить данные' })).toBeVisible()
  await expect(card).toContainText(/Ответить до \d{1,2} [а-я]+ \d{4}/)
  await expect(card).toContainText('Удалите, пожалуйста, мою почту и заказы')
  await noSideScroll(page)
  await card.getByLabel('Что сделано (для журнала)').fill('Удалили')
  await card.getByRole('button', { name: 'Отметить выполненным' }).click()
  await expect(page.getByText('Запрос отмечен выполненным')).toBeVisible()
  await expect(page.getByRole('listitem').filter({ hasText: email })).toHaveCount(0)
  await page.getByRole('link', { name: 'Выполненные' }).click()
  await expect(page.getByRole('listitem').filter({ hasText: email })).toContainText('Удалили')
}
