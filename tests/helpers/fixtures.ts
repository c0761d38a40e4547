// Vitest fixtures of the API tests (issue 46): what nearly every file set up by hand in its
// beforeAll. `apiTest(opts)` gives a `test` whose callbacks can ask for
//   api           the real API over this file's copy of the migrated template database, seeded
//                 (createTestApi(opts): env, fetch, seed), closed after the file's last test;
//   deps          the services' dependencies of that API ({ db, config, fetch }), for calling a
//                 service or a job handler directly;
//   owner/support a signed-in staff member with that role (a real account and grant);
//   sandboxMethod the name of a sandbox payment method of its own that answers `redirect`.
// Each is set up once per file, for the first test that asks for it (scope 'file'); a test that
// asks for none of them opens no database. A file whose module-level helpers need the API keeps
// `let api` + beforeAll and uses the same pieces: createTestApi, api.deps, makeStaff.
import { randomBytes } from 'node:crypto'
import { test as base } from 'vitest'
import type { ApiDeps } from '#api/context'
import { type StaffRole, users } from '#api/db/schema'
import { grantRole } from '#api/services/admin/roles'
import { startSession } from '#api/services/auth/tokens'
import { makeSandboxMethod } from '#tests/api/payments-fixtures'
import { createTestApi, type TestApi, type TestApiOptions } from './test-api'

export interface Staff {
  id: number
  email: string
  /** access token of a real session */
  token: string
  role: StaffRole
}

/** A signed-in staff member: an account with a confirmed email, granted `role` as the CLI does. */
export async function makeStaff(api: TestApi, role: StaffRole): Promise<Staff> {
  const email = `${role}-${randomBytes(4).toString('hex')}@example.com`
  const [u] = await api.db.insert(users).values({ email, emailConfirmedAt: new Date() }).returning()
  const { access: token } = await startSession(api.db, api.config, u!.id)
  await grantRole(api.db, email, role, 'test')
  return { id: u!.id, email, token, role }
}

export interface ApiFixtures {
  api: TestApi
  deps: ApiDeps
  owner: Staff
  support: Staff
  sandboxMethod: string
}

export function apiTest(opts: TestApiOptions = {}) {
  return base.extend<ApiFixtures>({
    api: [
      // biome-ignore lint/correctness/noEmptyPattern: Vitest reads a fixture's dependencies from this pattern
      async ({}, use) => {
        const api = await createTestApi(opts)
        try {
          await use(api)
        } finally {
          await api.close()
        }
      },
      { scope: 'file' },
    ],
    deps: [async ({ api }, use) => use(api.deps), { scope: 'file' }],
    owner: [async ({ api }, use) => use(await makeStaff(api, 'owner')), { scope: 'file' }],
    support: [async ({ api }, use) => use(await makeStaff(api, 'support')), { scope: 'file' }],
    sandboxMethod: [
      async ({ api }, use) => use((await makeSandboxMethod(api, 'redirect')).method.name),
      { scope: 'file' },
    ],
  })
}
