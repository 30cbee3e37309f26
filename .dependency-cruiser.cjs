/**
 * The server's module walls, enforced (docs/architecture.md, "Layers"). `npm run lint` runs
 * this beside ESLint; a violation fails CI.
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
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(node_modules|/dist/)' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.tsx'] },
  },
};
