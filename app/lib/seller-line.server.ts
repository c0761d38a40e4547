// The seller line of every page's footer (name, ИНН, ОГРН), from the contacts call that the owner's
// «Реквизиты и чеки» feed. A missing or failing answer leaves the footer without it, never the page.
import type { AppLoadContext } from '@remix-run/node'
import type { SellerLine } from '#app/components/site-footer'
import { apiFor } from '#app/lib/api/client.server'

export async function loadSellerLine(request: Request, context: AppLoadContext): Promise<SellerLine | null> {
  try {
    const { data } = await apiFor(request, context).client.GET('/api/contacts/')
    if (!data?.company_name) return null
    return { name: data.company_name, inn: data.inn, ogrn: data.company_id }
  } catch {
    return null
  }
}
