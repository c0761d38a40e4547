// `/{page}`: the catalogue's later pages. A page that is not a positive number fails the route's
// validity check: 404 'Page Not Found: {path}' (§5).
import { CataloguePage, catalogueLinks, catalogueMeta } from '#app/components/catalogue/catalogue-page'
import { catalogueLoader } from '#app/components/catalogue/catalogue.server'

export const loader = catalogueLoader
export const meta = catalogueMeta
export const links = catalogueLinks

export default CataloguePage
