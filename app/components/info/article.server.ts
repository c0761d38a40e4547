import { data, type LoaderFunctionArgs } from '@remix-run/node'
import { ApiResponseError, apiFor, must } from '#app/lib/api/client.server'
import { sanitizeHtml } from '#app/lib/sanitize-html.server'
import { shortDescription } from '#app/lib/seo'
import { markShared } from '#app/lib/shared-page.server'

/** Ends headings and list items with a full stop, so the plain-text description reads as sentences. */
function endSentences(html: string): string {
  return html.replace(/([^.!?:;…\s])\s*<\/(h2|h3|li|p)>/gi, '$1.</$2>')
}

/** Loader of an info article page: GET /api/articles/{slug}/, its HTML sanitized here on the server. */
export function articleLoader(slug: string) {
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
        },
        { headers: api.headers },
      )
    } catch (error) {
      if (error instanceof ApiResponseError) {
        throw data({ message: error.message }, { status: error.status, headers: api.headers })
      }
      throw error
    }
  }
}

export type ArticleData = Awaited<ReturnType<ReturnType<typeof articleLoader>>>['data']
