// npm run admin:grant -- <email> <owner|support|none>: gives a signed-up account a back-office
// role (or takes it away), in DATABASE_URL or the embedded database in DATA_DIR.
import path from 'node:path'
import { openDatabase } from '#api/db/client'
import { STAFF_ROLES, type StaffRole } from '#api/db/schema'
import { grantRole, revokeRole } from '#api/services/admin/roles'

const [email, role] = process.argv.slice(2)
const roles = [...STAFF_ROLES, 'none']
if (!email?.includes('@') || !role || !roles.includes(role)) {
  console.error(`usage: npm run admin:grant -- <email> <${roles.join('|')}>`)
  process.exit(2)
}
const dataDir = path.resolve(process.env.DATA_DIR || './data')
const database = await openDatabase({
  url: process.env.DATABASE_URL || undefined,
  dataDir: `${dataDir}/pglite`,
})
try {
  const userId = await grantRole(database.db, email, role === 'none' ? 'support' : (role as StaffRole), 'cli')
  if (role === 'none') await revokeRole(database.db, userId)
  console.log(role === 'none' ? `${email} has no back-office role now.` : `${email} is ${role} now.`)
} catch (e) {
  console.error((e as Error).message)
  process.exitCode = 1
} finally {
  await database.close()
}
