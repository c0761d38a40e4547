// Split mode (issue 19): SHOP_ROLE=storefront calls SHOP_ROLE=api over HTTP. The API must key each
// shopper by their own address, never by the storefront's: the storefront sends it signed with the
// shared JWT_SECRET. Visible effect: the API's sign-in limit per address (3 here) locks out the
// shopper who used it up, not everybody else coming through the same storefront.
import { randomUUID } from 'node:crypto'
import { request } from 'node:http'
import { expect, test } from '@playwright/test'
import { type ShopProcess, startShopProcess } from '../tests/helpers/shop-process'

const SECRET = 'split-mode-secret-split-mode-secret-42'

/** A no-JS sign-in form post to the storefront from the loopback address `from`; the status. */
function postSignIn(storefront: string, from: string): Promise<number> {
  const body = new URLSearchParams({
    email: `s-${randomUUID()}@example.com`,
    password: 'long-enough-1',
    // a new account needs the consent box ticked (issue 33)
    personal_data_consent: 'on',
  })
  return new Promise((resolve, reject) => {
    const req = request(
      `${storefront}/auth`,
      {
        method: 'POST',
        localAddress: from,
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: storefront },
      },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
      },
    )
    req.on('error', reject)
    req.end(body.toString())
  })
}

test('split mode: the API limits each shopper by their own address, not the storefront’s', async () => {
  test.setTimeout(180_000)
  let api: ShopProcess | undefined
  let storefront: ShopProcess | undefined
  try {
    api = await startShopProcess({
      env: {
        SHOP_ROLE: 'api',
        JWT_SECRET: SECRET,
        SIGNIN_LIMIT_PER_ADDRESS: '3',
        SIGNIN_LIMIT_PER_ACCOUNT: '100',
      },
    })
    storefront = await startShopProcess({
      env: { SHOP_ROLE: 'storefront', API_URL: api.url, JWT_SECRET: SECRET },
      waitFor: '/version.json',
    })
    // a successful sign-up redirects (302/303) to the page the shopper came from
    for (let i = 0; i < 3; i++) expect(await postSignIn(storefront.url, '127.0.0.2')).toBeLessThan(400)
    expect(await postSignIn(storefront.url, '127.0.0.2')).toBe(429)
    // another shopper through the same storefront still signs in
    expect(await postSignIn(storefront.url, '127.0.0.3')).toBeLessThan(400)
  } finally {
    await storefront?.stop('SIGKILL')
    await api?.stop('SIGKILL')
  }
})
