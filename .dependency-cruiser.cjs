// The layering rules `npm run lint:deps` enforces (issue 35). Type-only imports count too
// (tsPreCompilationDeps), so a cycle through a type import is a cycle.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No module may reach itself through its imports, type imports included.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'app-reaches-api-through-the-client',
      comment:
        'The storefront knows the API only through the generated contract in openapi/ (its types, and the ' +
        'JSON the client reads for required parameters), never by importing api/.',
      severity: 'error',
      from: { path: '^app/' },
      to: { path: '^api/' },
    },
    {
      name: 'db-imports-no-service',
      comment: 'The database layer (client, schema, faults) sits below the services.',
      severity: 'error',
      from: { path: '^api/src/db/' },
      to: { path: '^api/src/(services|routes|jobs|providers|demo)/' },
    },
    {
      name: 'services-import-no-route',
      comment: 'Routes are the HTTP edge over the services, never the other way round.',
      severity: 'error',
      from: { path: '^api/src/services/' },
      to: { path: '^api/src/routes/' },
    },
    {
      name: 'services-import-no-hono',
      comment:
        'Services know nothing of HTTP (issue 46): they take `(deps, actor, input)` (services/actor.ts; the ' +
        'route builds the actor with lib/actor.ts) and throw domain errors, and the wire schemas (zod-openapi) ' +
        'live with the routes (api/src/routes/schemas/). A service that validates uses plain `zod`. With ' +
        'services-import-no-route this is the rule "wire schemas live with the routes": a service can neither ' +
        'build one (@hono/zod-openapi) nor borrow one from a route.',
      severity: 'error',
      from: { path: '^api/src/services/' },
      to: { path: '(^|/)node_modules/(hono|@hono/[^/]+)/' },
    },
    {
      name: 'routes-query-no-database',
      comment:
        'Routes parse, call a service with `(deps, actor, …)` and map its domain errors (issue 46): no route ' +
        'file queries or writes the database, so none imports drizzle-orm or api/src/db/ (a value list of the ' +
        'schema is re-exported by the service the route calls). An import rule cannot see a call on ' +
        '`c.var.deps.db` itself; no route makes one (PUT /api/admin/shop/ saves through services/shop/update.ts).',
      severity: 'error',
      from: { path: '^api/src/routes/' },
      to: { path: '^api/src/db/|(^|/)node_modules/drizzle-orm/' },
    },
    {
      name: 'server-starts-the-api-through-startup',
      comment:
        "The API's start-up tasks live in the API (issue 46): server/ runs them through api/src/startup.ts " +
        '(prepareDatabase, prepareApi, demoSeeder, createApiJobWorker), never by importing the job worker or ' +
        "its handlers, the demo seed, drizzle's migrator or the start-up services themselves.",
      severity: 'error',
      from: { path: '^server/' },
      to: {
        path: [
          '^api/src/(jobs|demo)/',
          '^api/src/services/(admin/demo-staff|delivery/suppliers|payments/yookassa-setup|uploads/legacy-import)[.]ts$',
          '(^|/)node_modules/drizzle-orm/[^.]*migrator',
        ],
      },
    },
    {
      name: 'server-reaches-the-api-through-its-entries',
      comment:
        'The shop server (server/) reaches the API through these modules only (issue 46), so what the process ' +
        'around the API depends on is a list one can read: the API itself (app, context, env, startup, the ' +
        'database handle); the HTTP plumbing both sides share (lib/: log, errors, shared-answer, client-address, ' +
        "in-process, methods); the metrics' reads (services/: delivery/waiting, risk/queue, reconciliation/run " +
        "and /sources, db/schema for the reconciliation kinds); the personal pages' stamps and profile " +
        '(services/auth/page-stamp, /profile); the undeclared-proxy notice (services/alerts/proxy-notices); and the ' +
        "article limits the body limit shares with the back-office's wire schema (routes/admin/catalogue/texts). " +
        'A new one is added here on purpose, not by accident.',
      severity: 'error',
      from: { path: '^server/' },
      to: {
        path: '^api/',
        pathNot: [
          '^api/src/(app|context|env|startup)[.]ts$',
          '^api/src/db/(client|schema)[.]ts$',
          '^api/src/lib/(log|errors|shared-answer|client-address|in-process|methods)[.]ts$',
          '^api/src/services/(delivery/waiting|risk/queue|reconciliation/run|reconciliation/sources)[.]ts$',
          '^api/src/services/(auth/page-stamp|auth/profile|alerts/proxy-notices)[.]ts$',
          '^api/src/routes/admin/catalogue/texts[.]ts$',
        ],
      },
    },
    {
      name: 'nothing-imports-tests',
      comment:
        'Shipped code never imports the tests or the e2e suite. Allowed: the tools that drive the suites ' +
        '(playwright.config.ts, the screenshot tool) and the benches, which reuse the fake SMTP server.',
      severity: 'error',
      from: { pathNot: '^(tests|e2e)/|^playwright[.]config[.]ts$|^scripts/(screens[.]ts$|bench/)' },
      to: { path: '^(tests|e2e)/' },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that resolves to nothing is a typo or a missing dependency.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^build/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.jsx', '.json', '.d.ts'],
    },
  },
}
