// The «Антифрод» settings (issue 34): velocity limits and the risk rules with their thresholds.
// Owners only; every change is audited. Defaults come from the environment until saved once.
import { z } from '@hono/zod-openapi'
import type { ApiApp } from '../../context'
import { errorResponses, jsonContent } from '../../lib/schemas'
import { loadRiskSettings, RiskSettingsSchema } from '../../services/risk/settings'
import { replaceRiskSettings } from '../../services/risk/settings-edit'
import { adminRoute, staffOf } from './guard'

// the service's plain-zod rules, published under the contract's name
const Settings = z.object(RiskSettingsSchema.shape).openapi('RiskSettings')

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
    const { db, config } = c.var.deps
    return c.json(await replaceRiskSettings(db, config, staffOf(c), c.req.valid('json')), 200)
  })
}
