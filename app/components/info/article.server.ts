import { data, type LoaderFunctionArgs } from '@remix-run/node'
import { getServerT } from '#app/i18n/i18n.server'
import { ApiResponseError, apiFor, must } from '#app/lib/api/client.server'
import { sanitizeHtml } from '#app/lib/sanitize-html'
import { shortDescription } from '#app/lib/seo'
import { markShared } from '#app/lib/shared-page.server'
import { isLegalSlug } from '../../../shared/legal-documents'

/** Ends headings and list items with a full stop, so the plain-text description reads as sentences. */
function endSentences(html: string): string {
  return html.replace(/([^.!?:;…\s])\s*<\/(h2|h3|li|p)>/gi, '$1.</$2>')
}

/**
 * Loader of an info article page: GET /api/articles/{slug}/, its HTML sanitized here on the server.
 * `pageKey` (the `info.pages.*` key) marks a page the footer or a form links to: until the owner
 * writes it, it shows a polite placeholder (kept out of search engines) instead of a 404 (issue 37);
 * a legal document (shared/legal-documents.ts) says plainly that the shop has not published it yet
 * (issue 47), never a demo text.
 */
export function articleLoader(slug: string, pageKey?: string) {
  return async ({ request, context }: LoaderFunctionArgs) => {
    const api = apiFor(request, context)
    try {
      const article = await must(api.client.GET('/api/articles/{slug}/', { params: { path: { slug } } }))
      markShared(api)
      return data(
        {
          header: article.header,
          html: sanitizeHtml(article.text),
          description: shortDescription(endSentences(article.text)),
          placeholder: false,
        },
        { headers: api.headers },
      )
    } catch (error) {
      if (pageKey && error instanceof ApiResponseError && error.status === 404) {
        const { t } = await getServerT(request)
        const header = t(pageKey.includes('.') ? `${pageKey}.title` : `info.pages.${pageKey}.title`)
        const text = t(isLegalSlug(slug) ? 'info.legal_placeholder' : 'info.placeholder')
        return data(
          { header, html: `<p>${text}</p>`, description: '', placeholder: true },
          { headers: api.headers },
        )
      }
      if (error instanceof ApiResponseError) {
        throw data({ message: error.message }, { status: error.status, headers: api.headers })
      }
      throw error
    }
  }
}

export type ArticleData = Awaited<ReturnType<ReturnType<typeof articleLoader>>>['data']
