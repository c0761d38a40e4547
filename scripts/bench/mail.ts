// Mails per second the job worker sends to a local SMTP server (smtp-server on loopback), for
// order-done mails of real orders (each rendered from the database: order, lines, codes, payment).
//   npx tsx scripts/bench/mail.ts            PGlite in memory
//   BENCH_DATABASE_URL=postgres://… npx tsx scripts/bench/mail.ts
//   BENCH_MAILS=500 (mails per run)
// Prints the figure per worker concurrency, and one of the mails as the recipient reads it.
import { randomUUID } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { and, eq, isNull } from 'drizzle-orm'
import pg from 'pg'
import type { ApiDeps } from '#api/context'
import { openDatabase } from '#api/db/client'
import { jobs, orderProducts, orders, products, voucherCodes } from '#api/db/schema'
import { seedDemoData } from '#api/demo/seed-data'
import { loadApiConfig } from '#api/env'
import { JOB_HANDLERS } from '#api/jobs/handlers'
import { createJobWorker } from '#api/jobs/worker'
import { queueMail } from '#api/services/mail/outbox'
import { closeMailTransport } from '#api/services/mail/send-job'
import { log } from '#api/lib/log'
import { startTestSmtp } from '../../tests/helpers/smtp'

const total = Number(process.env.BENCH_MAILS ?? 500)

async function openBenchDatabase() {
  const admin = process.env.BENCH_DATABASE_URL
  if (!admin) return { db: await openDatabase({}), drop: async () => {} }
  const name = `shop_mail_bench_${Date.now()}`
  const c = new pg.Client({ connectionString: admin })
  await c.connect()
  await c.query(`CREATE DATABASE ${name}`)
  const url = new URL(admin)
  url.pathname = `/${name}`
  return {
    db: await openDatabase({ url: url.toString() }),
    drop: async () => {
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await c.end()
    },
  }
}

/** `n` done PUBG orders of one 60 UC code each, their mails queued as the state machine does. */
async function doneOrders(deps: ApiDeps, n: number) {
  const { db } = deps
  const [product] = await db.select().from(products).where(eq(products.kind, 'PUBGProduct')).limit(1)
  await db.insert(voucherCodes).values(
    Array.from({ length: n }, (_, i) => ({
      productId: product!.id,
      code: `UC-BENCH-${i}-${randomUUID().slice(0, 8)}`,
      amountUc: 60,
    })),
  )
  for (let i = 0; i < n; i++) {
    const id = randomUUID()
    const email = `bench-${i}@example.com`
    await db.transaction(async (tx) => {
      await tx.insert(orders).values({
        id,
        kind: 'PUBGOrder',
        status: 'done',
        gameId: product!.gameId,
        email,
        total: product!.price,
        totalToPay: product!.price,
        paidAt: new Date(),
      })
      const [line] = await tx
        .insert(orderProducts)
        .values({ orderId: id, productId: product!.id, quantity: 1, price: product!.price })
        .returning()
      const [free] = await tx
        .select({ id: voucherCodes.id })
        .from(voucherCodes)
        .where(and(eq(voucherCodes.productId, product!.id), isNull(voucherCodes.soldAt)))
        .limit(1)
      await tx
        .update(voucherCodes)
        .set({ orderProductId: line!.id, soldAt: new Date() })
        .where(eq(voucherCodes.id, free!.id))
      await queueMail(tx, {
        template: 'order_done',
        to: email,
        data: { orderId: id },
        key: `order_done:${id}`,
      })
    })
  }
}

async function main() {
  log.level = 'warn' // one line per mail would measure the terminal
  const smtp = await startTestSmtp()
  const { db: database, drop } = await openBenchDatabase()
  await seedDemoData(database.db)
  const config = loadApiConfig(
    {
      NODE_ENV: 'production',
      JWT_SECRET: 'bench-secret-bench-secret-bench-secret',
      SMTP_URL: smtp.url,
      MAIL_FROM: 'ИгроМаркет <shop@example.com>',
      PUBLIC_URL: 'https://shop.example',
    },
    { dataDir: mkdtempSync(path.join(tmpdir(), 'mail-bench-')), port: 3000 },
  )
  const deps: ApiDeps = { db: database.db, config, fetch }
  console.log(
    `Mail benchmark: ${total} order mails per run, ${database.kind}, SMTP on 127.0.0.1:${smtp.port}`,
  )
  for (const concurrency of [1, 4]) {
    await database.db.delete(jobs)
    smtp.received.length = 0
    await doneOrders(deps, total)
    let failures = 0
    const worker = createJobWorker(deps, {
      handlers: JOB_HANDLERS,
      concurrency,
      onError: (e) => {
        if (failures++ === 0) console.error(e)
      },
    })
    const started = performance.now()
    const ran = await worker.runDue()
    if (failures) throw new Error(`${failures} mails failed`)
    await smtp.waitFor(total, 60_000)
    const seconds = (performance.now() - started) / 1000
    console.log(
      `  worker concurrency ${concurrency}: ${ran} mails in ${seconds.toFixed(2)} s = ${(total / seconds).toFixed(0)} mails/s`,
    )
  }
  const sample = smtp.received[0]!
  console.log('\nA sample mail as the recipient reads it (text part):\n')
  console.log(`Subject: ${sample.subject}\nTo: ${sample.to}\nMessage-ID: ${sample.messageId}\n`)
  console.log(sample.text)
  closeMailTransport(config.mail)
  await database.close()
  await drop()
  await smtp.stop()
}

await main()
