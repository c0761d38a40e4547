// «Забыть мои данные на этом устройстве» (issue 50): a plain form post that expires the cookie in
// which this device remembers a guest's email and player ids (app/lib/remembered-buyer.server.ts),
// then goes back to the page it was posted from with a toast. CSRF: the origin check of every post.
import { type ActionFunctionArgs, redirect } from '@remix-run/node'
import { getServerT } from '#app/i18n/i18n.server'
import { safeReturnTo } from '#app/lib/account.server'
import { forgetCookie } from '#app/lib/remembered-buyer.server'
import { redirectWithToast } from '#app/lib/toast.server'

export const loader = () => redirect('/')

export async function action({ request }: ActionFunctionArgs) {
  const { t } = await getServerT(request)
  const form = await request.formData()
  const headers = new Headers({ 'set-cookie': forgetCookie(request) })
  return redirectWithToast(
    safeReturnTo(form.get('returnTo')),
    { type: 'success', text: t('products.remember.forgotten') },
    { request, headers },
  )
}
