import { CataloguePage, catalogueLinks, catalogueMeta } from '#app/components/catalogue/catalogue-page'
import { catalogueLoader } from '#app/components/catalogue/catalogue.server'

export const loader = catalogueLoader
export const meta = catalogueMeta
export const links = catalogueLinks

export default CataloguePage
