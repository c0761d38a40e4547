// GET /orders/{orderId}/status: the order status as JSON, for the payment page's polling
// (the browser never calls the API directly; this keeps its session and cookies in one place).
import type { LoaderFunctionArgs } from '@remix-run/node'
import { orderIdParam } from '#app/components/payment/pay-page.server'
import { ApiResponseError, apiFor, must } from '#app/lib/api/client.server'
import { toStatusResult } from '#app/lib/view-models/order'

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const orderId = orderIdParam(request, params.orderId)
  const api = apiFor(request, context)
  const headers = new Headers(api.headers)
  headers.set('cache-control', 'no-store')
  try {
    const status = await must(
      api.client.GET('/api/orders/status/{id}/', { params: { path: { id: orderId } } }),
    )
    return Response.json(toStatusResult(status), { headers })
  } catch (error) {
    if (!(error instanceof ApiResponseError)) throw error
    return Response.json({ detail: error.message }, { status: error.status, headers })
  }
}
