// Mutation testing of the money code (docs/decisions/035-mutation-testing.md): `npm run test:mutation`.
// Too slow for `npm test`; run it after changing any file below. A surviving mutant is a missing test.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts' },
  plugins: ['@stryker-mutator/vitest-runner'],
  // each mutant runs only the tests that executed its code in the first (dry) run
  coverageAnalysis: 'perTest',
  // 2 cores shared with other work; raise it on a bigger machine (STRYKER_CONCURRENCY)
  concurrency: Number(process.env.STRYKER_CONCURRENCY ?? 2),
  mutate: [
    'api/src/lib/money.ts',
    'app/lib/money.ts',
    'app/lib/order-form/totals.ts',
    // the Standoff listing price, shared by the order form and the server (issue 31)
    'shared/standoff-listing.ts',
    'api/src/services/orders/pricing.ts',
    'api/src/services/payments/amounts.ts',
    'api/src/services/promo/rules.ts',
    'api/src/services/identity/email-key.ts',
    'api/src/services/promo/redemption.ts',
    // the balance ledger and refunds (issue 12)
    'api/src/services/balance/rules.ts',
    'api/src/services/balance/cashback.ts',
    'api/src/services/balance/ledger.ts',
    'api/src/services/refunds/open.ts',
    'api/src/services/refunds/refused.ts',
    // where a provider refund goes next, and the mails' money lines (issue 43)
    'api/src/services/refunds/routing.ts',
    'api/src/services/mail/figures.ts',
    // «Сверка»: the comparison of a provider's books with the shop's (issue 43)
    'api/src/services/reconciliation/compare.ts',
    // fiscal receipts (issue 33): the lines that add up to the money paid, their transport shapes
    'api/src/services/receipts/model.ts',
    'api/src/services/receipts/formats.ts',
    'api/src/services/receipts/requisites.ts',
    // the back-office price rules of products and gifts (issue 35 moved them out of the routes)
    'api/src/services/admin/catalogue/pricing.ts',
    // what a promo discounts and the receipts' moment of delivery (issue 45)
    'api/src/services/promo/scope.ts',
    'api/src/services/receipts/moment.ts',
  ],
  ignorePatterns: ['e2e', 'docs', 'public', 'data', 'build', 'reports', 'test-results', 'playwright-report'],
  tempDirName: '.stryker-tmp',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  timeoutMS: 30_000,
  thresholds: { high: 90, low: 80, break: null },
}
