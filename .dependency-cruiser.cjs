/**
 * The walls between modules and packages, enforced: the server's modules (docs/architecture.md,
 * "Layers"), then the dashboard's three pages and the clients. `npm run lint` runs this beside
 * ESLint over every package (`npm run lint:modules`); a violation fails CI.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'No import cycle, type-only imports included: a cycle means two modules are one.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'module-public-entry-only',
      severity: 'error',
      comment: "A module imports another module through its public entry (modules/<m>/index.ts) only: repositories and the rest are the module's own.",
      from: { path: '^packages/server/src/modules/([^/]+)/' },
      to: { path: '^packages/server/src/modules/([^/]+)/', pathNot: ['^packages/server/src/modules/$1/', '^packages/server/src/modules/[^/]+/index\\.ts$'] },
    },
    {
      name: 'outside-uses-public-entry',
      severity: 'error',
      comment: 'Code outside the modules (app, CLI, runtime, workers, scripts, tests) reaches a module through its public entry only.',
      from: { path: '^packages/server/(src|scripts)/', pathNot: '^packages/server/src/modules/' },
      to: { path: '^packages/server/src/modules/[^/]+/', pathNot: '^packages/server/src/modules/[^/]+/index\\.ts$' },
    },
    {
      name: 'platform-imports-no-module',
      severity: 'error',
      comment: 'platform/ is what every module uses: it never imports a module, the app or the runtime.',
      from: { path: '^packages/server/src/platform/' },
      to: { path: '^packages/server/src/(modules/|app\\.ts|runtime\\.ts|services\\.ts|workers\\.ts|cli\\.ts|cluster\\.ts)' },
    },
    {
      name: 'repositories-are-private',
      severity: 'error',
      comment:
        "No file outside a module imports its repository, tests included: a module's tables are its own (module-public-entry-only covers the other modules).",
      from: { path: '^packages/server/', pathNot: '^packages/server/src/modules/' },
      to: { path: '^packages/server/src/modules/[^/]+/[^/]+\\.repository\\.ts$' },
    },
    {
      name: 'checkout-imports-no-dashboard',
      severity: 'error',
      comment:
        "The hosted checkout is built apart for a payer's phone on 3G (vite.checkout.config.ts): it never loads the dashboard's or the operator console's code, nor their libraries.",
      from: { path: '^packages/dashboard/src/(checkout|shared)/' },
      to: { path: ['^packages/dashboard/src/(dashboard|operator)/', 'node_modules/(@tanstack/|uplot/)'] },
    },
    {
      name: 'dashboard-imports-no-operator-console',
      severity: 'error',
      comment:
        "The operator console's pages are the platform's staff's: a merchant's dashboard never ships them (the console may reuse the dashboard's parts).",
      from: { path: '^packages/dashboard/src/dashboard/' },
      to: { path: '^packages/dashboard/src/operator/' },
    },
    {
      name: 'browser-code-imports-no-server',
      severity: 'error',
      comment: 'What runs in a browser (the dashboard, @caisse/browser, @caisse/react) reaches the server over HTTP only, never through its code.',
      from: { path: '^packages/(dashboard|browser|react)/src/' },
      to: { path: '^packages/server/' },
    },
    {
      name: 'browser-code-imports-no-node-builtins',
      severity: 'error',
      comment: 'What runs in a browser (the dashboard, @caisse/browser, @caisse/react) uses no Node.js built-in module.',
      from: { path: '^packages/(dashboard|browser|react)/src/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'clients-import-no-server-or-dashboard',
      severity: 'error',
      comment: "The published clients (@caisse/api-types, node, browser, react, intl) stand alone: they never import the server's or the dashboard's code.",
      from: { path: '^packages/(api-types|node|browser|react|intl)/src/' },
      to: { path: '^packages/(server|dashboard)/' },
    },
    {
      name: 'packages-by-name',
      severity: 'error',
      comment:
        "A package's sources import another workspace package by its name (@caisse/…), never by a relative path into its folder: the name is what a packed tarball resolves.",
      from: { path: '^packages/([^/]+)/src/' },
      to: { path: '^packages/', pathNot: '^packages/$1/', dependencyTypes: ['local'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(node_modules|/dist/)' },
    tsPreCompilationDeps: true,
    // `source` first, as the packages' tsconfig and Vite read them: @caisse/react resolves to its sources.
    enhancedResolveOptions: {
      extensions: ['.ts', '.js', '.tsx'],
      conditionNames: ['source', 'import', 'browser', 'default'],
      exportsFields: ['exports'],
      mainFields: ['module', 'main'],
    },
  },
};
