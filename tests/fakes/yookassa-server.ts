// The fake YooKassa as its own process for the e2e suite (playwright.config.ts starts it): the
// shop's YOOKASSA_API_URL points here; `POST /_test/succeed/{our payment id}` plays the payer
// paying and posts YooKassa's notification to the shop at SHOP_URL; `GET /_test/refunds/{our
// payment id}` lists the refunds YooKassa received for that payment; `POST /_test/plant` makes a
// payment that succeeded at YooKassa without the shop asking ({value, currency, metadata}).
import { startFakeYookassa } from './yookassa'

const port = Number(process.env.FAKE_YOOKASSA_PORT ?? 3209)
const shopUrl = process.env.SHOP_URL ?? 'http://localhost:3200'
const fake = await startFakeYookassa({ port, shopUrl })
console.log(`[fake-yookassa] listening on ${fake.url}, notifying ${shopUrl}`)
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    void fake.close().then(() => process.exit(0))
  })
