// GET /products/{id}/player?user_id=…&server_id=…&server_custom_id=… — the order form's live player
// check (JavaScript only; without it the form's own confirmation step does this). A resource route.
import { data, type LoaderFunctionArgs } from '@remix-run/node'
import { apiFor } from '#app/lib/api/client.server'
import { checkPlayer, playerKey } from '#app/lib/player-check.server'

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const id = params.id ?? ''
  if (!/^[1-9]\d{0,8}$/.test(id)) throw data({ message: 'Not found' }, { status: 404 })
  const url = new URL(request.url)
  const query = {
    userId: (url.searchParams.get('user_id') ?? '').slice(0, 100),
    serverId: (url.searchParams.get('server_id') ?? '').slice(0, 20),
    serverCustomId: (url.searchParams.get('server_custom_id') ?? '').slice(0, 100),
  }
  const api = apiFor(request, context)
  const result = await checkPlayer(api, Number(id), query)
  const headers = new Headers(api.headers)
  headers.set('Cache-Control', 'private, no-store')
  return data({ ...result, key: playerKey(query) }, { headers })
}
