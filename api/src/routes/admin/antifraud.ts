// The «Антифрод» settings (issue 34): velocity limits and the risk rules with their thresholds.
// Owners only; every change is audited. Defaults come from the environment until saved once.
import type { ApiApp } from '../../context'
import { errorResponses, jsonContent } from '../../lib/schemas'
import { audit, changedFields } from '../../services/admin/audit'
import { loadRiskSettings, RiskSettingsSchema, saveRiskSettings } from '../../services/risk/settings'
import { adminRoute, staffOf } from './guard'

const Settings = RiskSettingsSchema.openapi('RiskSettings')

const read = adminRoute('owner', {
  method: 'get',
  path: '/api/admin/antifraud/',
  summary: 'The fraud limits in force: velocity limits, rules on/off, thresholds (sums in kopecks)',
  responses: { 200: jsonContent(Settings), ...errorResponses(404) },
})

const write = adminRoute('owner', {
  method: 'put',
  path: '/api/admin/antifraud/',
  summary: 'Replace the fraud limits (all fields); audited',
  request: { body: { content: { 'application/json': { schema: Settings } }, required: true } },
  responses: { 200: jsonContent(Settings), ...errorResponses(400, 404) },
})

export function registerAdminAntifraud(app: ApiApp) {
  app.openapi(read, async (c) => c.json(await loadRiskSettings(c.var.deps.db, c.var.deps.config), 200))
  app.openapi(write, async (c) => {
    const next = c.req.valid('json')
    const { db, config } = c.var.deps
    await db.transaction(async (tx) => {
      const before = await loadRiskSettings(tx, config)
      await saveRiskSettings(tx, next)
      const diff = changedFields(before as Record<string, unknown>, next)
      await audit(tx, staffOf(c), {
        action: 'antifraud.update',
        entity: 'antifraud',
        entityId: 1,
        before: diff.before,
        after: diff.after,
      })
    })
    return c.json(await loadRiskSettings(db, config), 200)
  })
}
