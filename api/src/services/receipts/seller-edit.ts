// The owner saves the seller's requisites and receipt settings from the back-office («Реквизиты и
// чеки»): an INN or OGRN is checked by its check digits, the sandbox transport is refused where
// real shoppers pay, and the change is audited with the fields that differ, as the back-office
// shows them.
import type { Db } from '../../db/client'
import type { ApiConfig } from '../../env'
import { refuse, refuseField } from '../../lib/domain-error'
import { audit, changedFields } from '../admin/audit'
import type { StaffMember } from '../admin/roles'
import { isValidInn, isValidOgrn } from './requisites'
import { getSellerSettings, type SellerSettings, saveSellerSettings } from './settings'

/** The settings as the back-office shows them. */
export const sellerView = (s: SellerSettings) => ({
  legal_form: s.legalForm,
  company_name: s.companyName,
  inn: s.inn,
  ogrn: s.ogrn,
  address: s.address,
  email: s.email,
  phone: s.phone,
  extra: s.extra,
  tax_system: s.taxSystem,
  receipts_enabled: s.receiptsEnabled,
  receipt_transport: s.transport,
  item_rules: s.itemRules,
})

/** Saves the settings; returns them as saved. */
export async function updateSellerSettings(
  db: Db,
  config: Pick<ApiConfig, 'sandboxPayments'>,
  staff: StaffMember,
  next: Omit<SellerSettings, 'saved'>,
): Promise<SellerSettings> {
  if (next.inn !== '' && !isValidInn(next.inn)) throw refuseField('inn', 'seller_inn_invalid')
  if (next.ogrn !== '' && !isValidOgrn(next.ogrn)) throw refuseField('ogrn', 'seller_ogrn_invalid')
  // the sandbox prints no real receipt: never where real shoppers pay
  if (next.transport === 'sandbox' && !config.sandboxPayments) throw refuse('seller_sandbox_in_production')
  return db.transaction(async (tx) => {
    const before = await getSellerSettings(tx)
    await saveSellerSettings(tx, next)
    const after = await getSellerSettings(tx)
    const diff = changedFields(sellerView(before), sellerView(after))
    if (diff.changed)
      await audit(tx, staff, { action: 'seller.update', entity: 'seller', entityId: 1, ...diff })
    return after
  })
}
