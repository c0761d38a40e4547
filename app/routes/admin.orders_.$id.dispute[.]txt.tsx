// /admin/orders/:id/dispute.txt — the order's payment data and code views as a text file for a
// provider's dispute form (issue 34); the API writes it, this only hands it over. Staff only.
import type { LoaderFunctionArgs } from '@remix-run/node'
import { staffApi } from '#app/lib/admin/admin.server'
import { invalidRoute } from '#app/lib/http-errors.server'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api } = await staffApi(request, context)
  const id = params.id ?? ''
  if (!UUID.test(id)) invalidRoute(request)
  const { data: text, response } = await api.client.GET('/api/admin/orders/{id}/dispute/', {
    params: { path: { id: id.toLowerCase() } },
    parseAs: 'text',
  })
  if (!response.ok || typeof text !== 'string') invalidRoute(request)
  const headers = new Headers(api.headers)
  headers.set('content-type', 'text/plain; charset=utf-8')
  headers.set('content-disposition', `attachment; filename="dispute-${id.slice(0, 8).toLowerCase()}.txt"`)
  headers.set('cache-control', 'no-store')
  return new Response(text, { status: 200, headers })
}
