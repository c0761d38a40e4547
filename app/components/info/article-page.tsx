import type { LinksFunction, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { pageMeta } from '#app/lib/seo'
import infoCss from '#app/styles/info.css?url'
import type { ArticleData } from './article.server'
import { infoMetaT } from './info-meta'
import { InfoShell } from './info-shell'

export const infoLinks: LinksFunction = () => [{ rel: 'stylesheet', href: infoCss }]

export const articleMeta: MetaFunction = (args) => {
  const article = args.data as ArticleData | undefined
  if (!article) return []
  const t = infoMetaT(args.matches)
  const tags = pageMeta(args, {
    title: t('info.article_meta_title', { header: article.header }),
    description: article.description,
    type: 'article',
  })
  // a page the owner has not written yet is no page for search engines
  return article.placeholder ? [...tags, { name: 'robots', content: 'noindex' }] : tags
}

/** An info article: the header and its server-sanitized HTML. */
export function ArticlePage() {
  const article = useLoaderData<ArticleData>()
  return (
    <InfoShell title={article.header}>
      <div
        className="info-article"
        // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized by sanitizeHtml in the loader
        dangerouslySetInnerHTML={{ __html: article.html }}
      />
    </InfoShell>
  )
}
