import type { MetaFunction } from '@remix-run/node'
import { useT } from '#app/i18n/i18n-context'

export const meta: MetaFunction = () => [{ title: 'ИгроМаркет' }]

export default function Home() {
  const t = useT()
  return <h1>{t('nav.catalogue')}</h1>
}
