import { ArticlePage, articleMeta, infoLinks } from '#app/components/info/article-page'
import { articleLoader } from '#app/components/info/article.server'

export const loader = articleLoader('TextBlock')
export const meta = articleMeta
export const links = infoLinks

export default ArticlePage
