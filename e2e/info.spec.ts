import { expect, test } from '@playwright/test'
import { withSellerLock } from './seller-lock'

test('the info index lists every info page and leads to them', async ({ page }) => {
  await page.goto('/info')
  await expect(page.getByRole('heading', { level: 1, name: 'Информация' })).toBeVisible()
  await expect(page).toHaveTitle('Информация для покупателей — ИгроМаркет')
  const list = page.getByRole('main').getByRole('list').filter({ hasText: 'Реквизиты компании' })
  for (const name of [
    'Контакты',
    'Политика конфиденциальности',
    'Пользовательское соглашение',
    'Как мы работаем',
  ]) {
    await expect(list.getByRole('link', { name })).toBeVisible()
  }
  await list.getByRole('link', { name: 'Пользовательское соглашение' }).click()
  await expect(page).toHaveURL('/info/user-agreement')
  await expect(page.getByRole('heading', { level: 1, name: 'Пользовательское соглашение' })).toBeVisible()
})

const articles = [
  {
    path: '/info/privacy-policy',
    heading: 'Политика конфиденциальности',
    section: '1. Какие данные мы обрабатываем',
    description: /^Настоящая Политика конфиденциальности описывает/,
    text: '№ 152-ФЗ «О персональных данных»',
  },
  {
    path: '/info/user-agreement',
    heading: 'Пользовательское соглашение',
    section: '5. Возврат и отмена',
    description: /^Настоящее Пользовательское соглашение/,
    text: 'статьи 437 Гражданского кодекса РФ',
  },
  {
    path: '/info/TextBlock',
    heading: 'Как мы работаем',
    section: 'Как купить за три шага',
    description: /^Как купить за три шага\. Выберите игру и товар\./,
    text: 'Автоматическая выдача кодов круглосуточно',
  },
]

for (const a of articles) {
  test(`${a.path} renders the seeded article`, async ({ page }) => {
    const res = await page.goto(a.path)
    expect(res?.status()).toBe(200)
    await expect(page.getByRole('heading', { level: 1, name: a.heading })).toBeVisible()
    await expect(page.getByRole('heading', { level: 2, name: a.section })).toBeVisible()
    await expect(page.getByText(a.text)).toBeVisible()
    await expect(page).toHaveTitle(`${a.heading} — ИгроМаркет`)
    await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', a.description)
    // the section menu marks the current page
    const menu = page.getByRole('navigation', { name: 'Разделы информации' })
    await expect(menu.getByRole('link', { name: a.heading })).toHaveAttribute('aria-current', 'page')
  })
}

test('article links come out of the sanitizer with rel="noopener"', async ({ page }) => {
  await page.goto('/info/privacy-policy')
  const mail = page.getByRole('main').getByRole('link', { name: 'support@igromarket.example' })
  await expect(mail).toHaveAttribute('href', 'mailto:support@igromarket.example')
  await expect(mail).toHaveAttribute('rel', 'noopener')
})

// the requisites row is shared with the legal specs, which change it and put it back under the lock
test('contacts show the company, address, INN, OGRN and the support lines', async ({ page }) => {
  await withSellerLock(async () => {
    await page.goto('/info/contacts')
    await expect(page.getByRole('heading', { level: 1, name: 'Контакты' })).toBeVisible()
    await expect(page).toHaveTitle('Контакты и реквизиты — ИгроМаркет')
    const details = page.locator('dl.info-contacts')
    await expect(details.getByText('ИНН', { exact: true })).toBeVisible()
    await expect(details.getByText('7703482150')).toBeVisible()
    await expect(details.getByText('ОГРН', { exact: true })).toBeVisible()
    await expect(details.getByText('1197746340516')).toBeVisible()
    await expect(details.getByText('ООО «ИгроМаркет»')).toBeVisible()
    await expect(details.getByText(/Пресненская наб\./)).toBeVisible()
    await expect(details.getByRole('link', { name: 'support@igromarket.example' })).toHaveAttribute(
      'href',
      'mailto:support@igromarket.example',
    )
  })
})
