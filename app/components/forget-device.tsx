// «Забыть мои данные на этом устройстве» (issue 50) where a buyer looks for it: the page the footer
// links to (/buyer/forget), the profile settings and a gift's page that pre-filled the email. A plain
// form post (the origin check of every post is its CSRF defence), so it works without JavaScript;
// the same for every visitor, so a shared page stays shared. The game page has its own (game-page.tsx).
import { Form } from '@remix-run/react'
import { useT } from '#app/i18n/i18n-context'

export function ForgetDeviceForm({ returnTo, note }: { returnTo: string; note?: string }) {
  const t = useT()
  return (
    <Form
      method="post"
      action="/buyer/forget"
      className="device-forget"
      aria-label={t('account.device_data.title')}
    >
      <input type="hidden" name="returnTo" value={returnTo} />
      {note ? <p className="device-forget__note">{note}</p> : null}
      <button type="submit" className="button">
        {t('account.device_data.forget')}
      </button>
    </Form>
  )
}
