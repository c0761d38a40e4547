import { statSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { BaseSequencer, type TestSpecification } from 'vitest/node'
import { defineConfig } from 'vitest/config'

const dir = (p: string) => fileURLToPath(new URL(p, import.meta.url))

/**
 * Order of the files. Stryker stops a mutant's run at its first failing test, so: unit files before
 * API files (vitest's own order, slowest first, would start every mutant of a shared helper such
 * as toMoney with the API files), and the files written for the mutation run (`money-*`) after
 * the others, so a mutant's first killer tells whether the other tests caught it (the "before"
 * figures in docs/decisions/035-mutation-testing.md).
 */
class OldThenNew extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const cost = (f: TestSpecification) =>
      (/\/money-[^/]*$/.test(f.moduleId) ? 2e9 : 0) +
      (f.moduleId.includes('/tests/api/') ? 1e9 : 0) +
      statSync(f.moduleId).size
    return [...files].sort((a, b) => cost(a) - cost(b))
  }
}

// The tests that cover the money code (stryker.config.mjs mutates it), on PGlite only: Stryker
// runs them once per mutant, so the set stays small. Not part of `npm test`.
export default defineConfig({
  resolve: {
    alias: {
      '#app': dir('./app'),
      '#api': dir('./api/src'),
      '#tests': dir('./tests'),
      '#openapi': dir('./openapi'),
    },
  },
  test: {
    name: 'mutation',
    env: { TEST_DB: 'pglite', TEST_DB_TEMPLATE: '1' },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    sequence: { sequencer: OldThenNew },
    // one module graph for all files (each still opens its own database): half the time per mutant,
    // and Stryker switches mutants at run time, so nothing needs re-importing between runs
    isolate: false,
    // promo-abuse.test.ts is left out (races and rate limits: minutes per mutant); money-promo and
    // money-edges cover its rules directly
    include: [
      'tests/unit/money.test.ts',
      'tests/unit/money-*.test.ts',
      'tests/unit/order-form.test.ts',
      'tests/unit/providers-amounts.test.ts',
      'tests/unit/balance-rules.test.ts',
      'tests/unit/receipts-model.test.ts',
      'tests/unit/promo-scope.test.ts',
      'tests/unit/receipts-moment.test.ts',
      'tests/unit/reconciliation-compare.test.ts',
      'tests/api/money-*.test.ts',
      'tests/api/orders-pricing.test.ts',
      'tests/api/promo.test.ts',
      'tests/api/balance-ledger.test.ts',
      'tests/api/refunds.test.ts',
      'tests/api/payment-refunds.test.ts',
    ],
  },
})
