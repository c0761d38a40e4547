// The owner replaces the «Антифрод» settings from the back-office; the change is audited with the
// fields that differ.
import type { Db } from '../../db/client'
import type { ApiConfig } from '../../env'
import { audit, changedFields } from '../admin/audit'
import type { StaffMember } from '../admin/roles'
import { loadRiskSettings, type RiskSettings, saveRiskSettings } from './settings'

/** Saves the settings; returns them as now in force. */
export async function replaceRiskSettings(db: Db, config: ApiConfig, staff: StaffMember, next: RiskSettings) {
  await db.transaction(async (tx) => {
    const before = await loadRiskSettings(tx, config)
    await saveRiskSettings(tx, next)
    const diff = changedFields(before as Record<string, unknown>, next)
    await audit(tx, staff, {
      action: 'antifraud.update',
      entity: 'antifraud',
      entityId: 1,
      before: diff.before,
      after: diff.after,
    })
  })
  return loadRiskSettings(db, config)
}
