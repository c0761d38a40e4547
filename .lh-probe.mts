import { runLighthouse } from './scripts/bench/lighthouse.ts'
const b = JSON.parse(process.argv[2]!)
const r = await runLighthouse([`http://127.0.0.1:4400/orders/${b.orderId}/pay`], 3, { Cookie: `${b.cookie}; i18n_redirected=ru` })
console.log(JSON.stringify(r).slice(0, 400))
