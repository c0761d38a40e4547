// The sandbox checkout page: small server-rendered HTML, works without JavaScript, no scripts at all.
import apiMessages from '../../../../locales/ru/api.json' with { type: 'json' }

const t = (key: keyof typeof apiMessages) => apiMessages[key]

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)
}

export const CHECKOUT_CSS = `
body{margin:0;min-height:100vh;display:grid;place-items:center;background:#0f1115;color:#e8eaf0;
font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{width:min(28rem,100% - 2rem);background:#181b22;border:1px solid #2a2f3a;border-radius:12px;padding:1.5rem}
h1{font-size:1.35rem;margin:0 0 .25rem}p{margin:.5rem 0}.muted{color:#b4bac6}
.amount{font-size:2rem;font-weight:700;margin:1rem 0}
.actions{display:flex;gap:.75rem;flex-wrap:wrap;margin-top:1.25rem}form{margin:0}
button,a.button{min-height:44px;padding:.6rem 1.2rem;border-radius:8px;border:0;font:inherit;font-weight:600;
cursor:pointer;text-decoration:none;display:inline-flex;align-items:center}
.pay{background:#3ddc84;color:#0b1a10}.decline{background:#2a2f3a;color:#f2f3f7;border:1px solid #49505e}
a{color:#8ab4ff}:focus-visible{outline:3px solid #8ab4ff;outline-offset:2px}`

/** Served by the API itself: no inline styles or scripts, so the strictest page policy holds. */
export const CHECKOUT_CSS_PATH = '/api/payments/sandbox/checkout.css'

export const CHECKOUT_HEADERS = (formTarget: string): Record<string, string> => ({
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'content-security-policy': `default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; frame-ancestors 'none'; form-action 'self' ${formTarget}`,
})

function page(title: string, body: string): string {
  return `<!doctype html><html lang="ru"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title><link rel="stylesheet" href="${CHECKOUT_CSS_PATH}"></head><body><main>${body}</main></body></html>`
}

export interface CheckoutView {
  paymentId: string
  orderId: string
  amount: string
  currency: string
  methodTitle: string
  status: 'pending' | 'succeeded' | 'failed'
  token: string
  minorAmount: number
  returnUrl: string
}

function hidden(name: string, value: string) {
  return `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`
}

/** The page: amount, method, and two forms (confirm, decline) carrying the signed payment fields. */
export function renderCheckout(v: CheckoutView): string {
  const base = `/api/payments/sandbox/checkout/${v.paymentId}`
  const fields =
    hidden('amount', String(v.minorAmount)) + hidden('currency', v.currency) + hidden('token', v.token)
  const head = `<h1>${escapeHtml(t('sandbox_page_title'))}</h1>
<p class="muted">${escapeHtml(t('sandbox_page_note'))}</p>
<p>${escapeHtml(t('sandbox_page_method'))}: ${escapeHtml(v.methodTitle)}</p>
<p>${escapeHtml(t('sandbox_page_order'))}: <code>${escapeHtml(v.orderId)}</code></p>
<p class="amount">${escapeHtml(v.amount)} ${escapeHtml(v.currency)}</p>`
  const back = `<p><a href="${escapeHtml(v.returnUrl)}">${escapeHtml(t('sandbox_page_back'))}</a></p>`
  if (v.status !== 'pending') {
    const note = v.status === 'succeeded' ? t('sandbox_page_already_paid') : t('sandbox_page_closed')
    return page(t('sandbox_page_title'), `${head}<p role="status">${escapeHtml(note)}</p>${back}`)
  }
  return page(
    t('sandbox_page_title'),
    `${head}<div class="actions">
<form method="post" action="${base}/confirm/">${fields}<button class="pay" type="submit">${escapeHtml(t('sandbox_page_pay'))}</button></form>
<form method="post" action="${base}/decline/">${fields}<button class="decline" type="submit">${escapeHtml(t('sandbox_page_decline'))}</button></form>
</div>${back}`,
  )
}

export function renderCheckoutError(detail: string, returnUrl: string | null): string {
  const back = returnUrl
    ? `<p><a href="${escapeHtml(returnUrl)}">${escapeHtml(t('sandbox_page_back'))}</a></p>`
    : ''
  return page(
    t('sandbox_page_title'),
    `<h1>${t('sandbox_page_title')}</h1><p role="alert">${escapeHtml(detail)}</p>${back}`,
  )
}
