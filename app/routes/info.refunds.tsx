import { ArticlePage, articleMeta, infoLinks } from '#app/components/info/article-page'
import { articleLoader } from '#app/components/info/article.server'
import { sharedPageHeaders } from '#app/lib/shared-page.server'

export const loader = articleLoader('refunds', 'legal.pages.refunds')
// a signed-out visitor's page may come from the page cache (decision 038)
export const headers = sharedPageHeaders
export const meta = articleMeta
export const links = infoLinks

export default ArticlePage
