// The back-office API (/api/admin/…): staff only, every operation marked with the role it needs.
import type { ApiApp } from '../../context'
import { registerAdminCatalogue } from './catalogue'
import { registerAdminDataRequests } from './data-requests'
import { registerAdminDelivery } from './delivery'
import { registerAdminReview } from './review'
import { registerAdminAntifraud } from './antifraud'
import { registerAdminBlocks } from './blocks'
import { registerAdminCodeViews } from './code-views'
import { adminGuard } from './guard'
import { registerAdminKinds } from './kinds'
import { registerAdminLogos } from './logos'
import { registerAdminOrders } from './orders'
import { registerAdminOverview } from './overview'
import { registerAdminPayments } from './payments'
import { registerAdminPromo } from './promo'
import { registerAdminReceipts } from './receipts'
import { registerAdminReconciliation } from './reconciliation'
import { registerAdminSeller } from './seller'
import { registerAdminStock } from './stock'
import { registerAdminTelegram } from './telegram'

export function registerAdmin(app: ApiApp) {
  app.use('/api/admin/*', adminGuard)
  registerAdminOverview(app)
  registerAdminOrders(app)
  registerAdminDelivery(app)
  registerAdminReview(app)
  registerAdminAntifraud(app)
  registerAdminBlocks(app)
  registerAdminCodeViews(app)
  registerAdminCatalogue(app)
  registerAdminLogos(app)
  registerAdminStock(app)
  registerAdminPromo(app)
  registerAdminPayments(app)
  registerAdminSeller(app)
  registerAdminReceipts(app)
  registerAdminKinds(app)
  registerAdminDataRequests(app)
  registerAdminReconciliation(app)
  registerAdminTelegram(app)
}
