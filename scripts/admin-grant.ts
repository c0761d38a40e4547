// npm run admin:grant -- <email> <owner|support|none>: gives a signed-up account whose email is
// confirmed a back-office role (or takes it away), in DATABASE_URL or the embedded database in
// DATA_DIR. An unconfirmed account or an unknown address is refused with what to do (issue 42).
import './load-env.mjs' // first: .env / ENV_FILE before anything reads the environment
import path from 'node:path'
import { openDatabase } from '#api/db/client'
import { STAFF_ROLES, type StaffRole } from '#api/db/schema'
import { accountByEmail, GrantRefused, grantRole, revokeRole } from '#api/services/admin/roles'

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
  if (role === 'none') {
    // taking a role away needs no proof: any account (confirmed or not) can lose one
    const user = await accountByEmail(database.db, email)
    if (!user) throw new GrantRefused('no_account', `There is no account with the email ${email}.`)
    await revokeRole(database.db, user.id)
    console.log(`${email} has no back-office role now.`)
  } else {
    await grantRole(database.db, email, role as StaffRole, 'cli')
    console.log(`${email} is ${role} now.`)
  }
} catch (e) {
  console.error((e as Error).message)
  process.exitCode = e instanceof GrantRefused ? 3 : 1
} finally {
  await database.close()
}
