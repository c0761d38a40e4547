// /admin/stock: free and sold codes of every voucher product and gift.
import { data, type LoaderFunctionArgs } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useT } from '#app/i18n/i18n-context'
import { ownerApi, read } from '#app/lib/admin/admin.server'
import { adminMeta } from '#app/lib/admin/meta'

export const meta = adminMeta('stock.title')

/** Fewer free codes than this is shown as low (the overview's warning uses the API's own). */
const LOW = 10

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api } = await ownerApi(request, context)
  const stock = await read(request, api, api.client.GET('/api/admin/stock/'))
  return data({ stock }, { headers: api.headers })
}

function CountsTable({
  kind,
  rows,
}: {
  kind: 'products' | 'gifts'
  rows: Array<{ id: number; title: string; free: number; sold: number }>
}) {
  const t = useT()
  return (
    <table className="admin-table admin-table--cards">
      <caption className="visually-hidden">{t(`admin.stock.${kind}`)}</caption>
      <thead>
        <tr>
          <th scope="col">{t('admin.stock.item')}</th>
          <th scope="col">{t('admin.stock.free')}</th>
          <th scope="col">{t('admin.stock.sold')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.id}>
            <th scope="row" data-label={t('admin.stock.item')}>
              <Link to={`/admin/stock/${kind}/${r.id}`}>{r.title}</Link>
            </th>
            <td data-label={t('admin.stock.free')}>
              {r.free}{' '}
              {r.free < LOW ? (
                <span className="admin-status admin-status--failed">{t('admin.stock.low')}</span>
              ) : null}
            </td>
            <td data-label={t('admin.stock.sold')}>{r.sold}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

export default function AdminStock() {
  const t = useT()
  const { stock } = useLoaderData<typeof loader>()
  return (
    <section aria-labelledby="admin-h1">
      <h1 id="admin-h1">{t('admin.stock.title')}</h1>
      <h2>{t('admin.stock.products')}</h2>
      {stock.products.length ? (
        <CountsTable kind="products" rows={stock.products} />
      ) : (
        <p>{t('admin.stock.none')}</p>
      )}
      <h2>{t('admin.stock.gifts')}</h2>
      {stock.gifts.length ? <CountsTable kind="gifts" rows={stock.gifts} /> : <p>{t('admin.stock.none')}</p>}
      <p className="field__hint">{t('admin.stock.held_note')}</p>
    </section>
  )
}
