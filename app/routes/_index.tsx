import { CataloguePage, catalogueLinks, catalogueMeta } from '#app/components/catalogue/catalogue-page'
import { catalogueLoader } from '#app/components/catalogue/catalogue.server'
import { sharedPageHeaders } from '#app/lib/shared-page.server'

export const loader = catalogueLoader
// a signed-out visitor's page may come from the page cache (decision 038)
export const headers = sharedPageHeaders
export const meta = catalogueMeta
export const links = catalogueLinks

export default CataloguePage
