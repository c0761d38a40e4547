// «Данные на этом устройстве» (issue 50): the page the footer links to, saying what this device
// remembers of a guest's orders (app/lib/remembered-buyer.server.ts) with the button that forgets
// it, and the form post behind every «Забыть мои данные на этом устройстве» (here, the game page,
// a gift's page, the profile settings): it expires the cookies on both their paths, then goes back
// to the page it was posted from with a toast. CSRF: the origin check of every post
// (server/csrf.ts). The page is the same for every visitor (the cookies are never sent here: it
// cannot tell whether this device remembers anything): it reads nothing, varies by nothing and is
// kept by the page cache like an article.
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { infoLinks } from '#app/components/info/article-page'
import { infoMetaT } from '#app/components/info/info-meta'
import { InfoShell } from '#app/components/info/info-shell'
import { ForgetDeviceForm } from '#app/components/forget-device'
import { useT } from '#app/i18n/i18n-context'
import { getServerT } from '#app/i18n/i18n.server'
import { safeReturnTo } from '#app/lib/account.server'
import { apiFor } from '#app/lib/api/client.server'
import { forgetCookies } from '#app/lib/remembered-buyer.server'
import { pageMeta } from '#app/lib/seo'
import { markShared, sharedPageHeaders } from '#app/lib/shared-page.server'
import { redirectWithToast } from '#app/lib/toast.server'

const PATH = '/buyer/forget'

export const meta: MetaFunction = (args) => {
  const t = infoMetaT(args.matches)
  return pageMeta(args, {
    title: t('account.device_data.title'),
    description: t('account.device_data.meta_description'),
    noIndex: true,
  })
}
export const links = infoLinks
export const headers = sharedPageHeaders

export function loader({ request, context }: LoaderFunctionArgs) {
  const api = apiFor(request, context)
  markShared(api)
  return data(null, { headers: api.headers })
}

export async function action({ request }: ActionFunctionArgs) {
  const { t } = await getServerT(request)
  const form = await request.formData()
  const headers = new Headers()
  for (const set of forgetCookies(request)) headers.append('set-cookie', set)
  return redirectWithToast(
    safeReturnTo(form.get('returnTo')),
    { type: 'success', text: t('account.device_data.forgotten') },
    { request, headers },
  )
}

export default function DeviceData() {
  const t = useT()
  return (
    <InfoShell title={t('account.device_data.title')}>
      <p className="info-lead">{t('account.device_data.lead')}</p>
      <p>{t('account.device_data.where')}</p>
      <ForgetDeviceForm returnTo={PATH} />
    </InfoShell>
  )
}
