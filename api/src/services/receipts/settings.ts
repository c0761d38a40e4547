// The seller's requisites and receipt settings (one row, edited by the owner in «Реквизиты и чеки»).
// They feed the contacts call, the footer, mails and every receipt: the one place they are read.
import { eq } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { sellerSettings } from '../../db/schema'
import type { ApiConfig } from '../../env'
import { message } from '../../lib/errors'
import {
  type ItemRules,
  mergeItemRules,
  type ReceiptSeller,
  type ReceiptTransport,
  RECEIPT_TRANSPORTS,
  TAX_SYSTEMS,
  type TaxSystem,
} from './model'

export interface SellerSettings {
  legalForm: string
  companyName: string
  inn: string
  ogrn: string
  address: string
  email: string
  phone: string
  extra: string
  taxSystem: TaxSystem
  receiptsEnabled: boolean
  transport: ReceiptTransport
  itemRules: ItemRules
  /** false until the owner saved the requisites once */
  saved: boolean
}

const SETTINGS_ID = 1

export async function getSellerSettings(db: Db | Tx): Promise<SellerSettings> {
  const [row] = await db.select().from(sellerSettings).where(eq(sellerSettings.id, SETTINGS_ID))
  return {
    legalForm: row?.legalForm ?? '',
    companyName: row?.companyName ?? '',
    inn: row?.inn ?? '',
    ogrn: row?.ogrn ?? '',
    address: row?.address ?? '',
    email: row?.email ?? '',
    phone: row?.phone ?? '',
    extra: row?.extra ?? '',
    taxSystem: TAX_SYSTEMS.includes(row?.taxSystem as TaxSystem)
      ? (row?.taxSystem as TaxSystem)
      : 'usn_income',
    receiptsEnabled: row?.receiptsEnabled ?? false,
    transport: RECEIPT_TRANSPORTS.includes(row?.receiptTransport as ReceiptTransport)
      ? (row?.receiptTransport as ReceiptTransport)
      : 'sandbox',
    itemRules: mergeItemRules(row?.itemRules ?? null),
    saved: row !== undefined,
  }
}

export async function saveSellerSettings(db: Db | Tx, s: Omit<SellerSettings, 'saved'>): Promise<void> {
  const values = {
    legalForm: s.legalForm,
    companyName: s.companyName,
    inn: s.inn,
    ogrn: s.ogrn,
    address: s.address,
    email: s.email,
    phone: s.phone,
    extra: s.extra,
    taxSystem: s.taxSystem,
    receiptsEnabled: s.receiptsEnabled,
    receiptTransport: s.transport,
    itemRules: s.itemRules,
    updated: new Date(),
  }
  await db
    .insert(sellerSettings)
    .values({ id: SETTINGS_ID, ...values })
    .onConflictDoUpdate({ target: sellerSettings.id, set: values })
}

/** The seller's name as printed: «ООО Ромашка». */
export const sellerName = (s: Pick<SellerSettings, 'legalForm' | 'companyName'>) =>
  [s.legalForm, s.companyName].filter(Boolean).join(' ')

/** The requisites a receipt cannot go without, missing ones by their Russian names. */
export function missingRequisites(s: SellerSettings): string[] {
  const missing: string[] = []
  if (!s.companyName) missing.push('название')
  if (!s.inn) missing.push('ИНН')
  if (!s.ogrn) missing.push('ОГРН')
  if (!s.address) missing.push('адрес')
  if (!s.email) missing.push('почта')
  return missing
}

export function receiptSeller(s: SellerSettings, config: Pick<ApiConfig, 'publicUrl'>): ReceiptSeller {
  return {
    inn: s.inn,
    name: sellerName(s),
    email: s.email,
    tax_system: s.taxSystem,
    payment_address: config.publicUrl,
  }
}

/**
 * What the owner must fix before taking money for real (red on the back-office overview). None in
 * the demo, whose payments are the sandbox's.
 */
export function sellerWarnings(s: SellerSettings, config: Pick<ApiConfig, 'demo'>): string[] {
  if (config.demo) return []
  const out: string[] = []
  const missing = missingRequisites(s)
  if (missing.length) out.push(message('seller_warning_requisites', { fields: missing.join(', ') }))
  if (!s.receiptsEnabled) out.push(message('seller_warning_receipts_off'))
  else if (s.transport === 'sandbox') out.push(message('seller_warning_sandbox'))
  return out
}
