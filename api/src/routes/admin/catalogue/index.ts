// The back-office catalogue, by feature. Every change is audited; the storefront shows it within
// its catalogue cache time (CATALOGUE_CACHE_SECONDS).
import type { ApiApp } from '../../../context'
import { registerAdminGames } from './games'
import { registerAdminGifts } from './gifts'
import { registerAdminProducts } from './products'
import { registerAdminTexts } from './texts'

export function registerAdminCatalogue(app: ApiApp) {
  registerAdminGames(app)
  registerAdminProducts(app)
  registerAdminGifts(app)
  registerAdminTexts(app)
}
