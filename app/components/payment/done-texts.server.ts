// What the success screen says under a done order's codes: how to activate them and where, and
// what was delivered for an order without codes. The texts are the done mail's
// (locales/ru/mail.json, order_done), so the page and the mail never tell two stories (issue 50).
import mail from '../../../locales/ru/mail.json'
import { formatAmount } from '#app/lib/money'
import type { Order } from '#app/lib/view-models/order'
import type { DoneTexts } from './types'

const M = mail.order_done

/** Midasbuy's page for redeeming PUBG Mobile UC codes (the mail's «страница активации кодов»). */
const MIDASBUY_REDEEM_URL = 'https://www.midasbuy.com/midasbuy/ru/redeem/pubgm'

/** `{name}` placeholders of the mail texts (single braces, unlike common.json's). */
const fill = (text: string, params: Record<string, string>) =>
  text.replace(/\{(\w+)\}/g, (all, k: string) => params[k] ?? all)

/** What was delivered to an order without codes, and to whom (the done mail's «Что сделано»). */
function deliveredText(order: Order): string | null {
  const a = order.account
  const account = a.gameAccountId ?? a.steamAccountId ?? a.supplyUserId ?? ''
  let text: string | null = null
  switch (order.kind) {
    case 'StandoffOrder':
      text = fill(M.standoff, { account })
      break
    case 'SteamOrder':
      text = fill(M.steam, { account, amount: formatAmount(order.steam?.amount ?? 0) })
      break
    case 'MooGoldOrder':
      text = a.supplyServer
        ? fill(M.supply_server, { account, server: a.supplyServer })
        : fill(M.supply, { account })
      break
  }
  return text && a.playerNickname ? `${text} ${fill(M.player, { nickname: a.playerNickname })}` : text
}

/** The done screen's texts; null while the order is not done. */
export function doneTexts(order: Order): DoneTexts | null {
  if (order.status !== 'done') return null
  const hasCodes = order.lines.some((l) => l.codes.length > 0)
  if (hasCodes) {
    return {
      activation: {
        heading: M.pubg_howto_heading,
        text: M.pubg_howto,
        link: { href: MIDASBUY_REDEEM_URL, external: true },
      },
      keep: M.keep_codes,
      delivered: null,
    }
  }
  if (order.giftCode !== null) {
    // the mail's fallback names the gift page's address; the page links it instead
    const [before = ''] = M.gift_howto_fallback.split('{url}')
    return {
      activation: {
        heading: M.gift_howto_heading,
        text: before.replace(/[\s:—-]+$/u, '.'),
        link: order.gift ? { href: `/gifts/detalis/${order.gift.id}`, external: false } : null,
      },
      keep: M.keep_codes,
      delivered: null,
    }
  }
  return { activation: null, keep: null, delivered: deliveredText(order) }
}
