// The house's import boundaries, checked by `npm run lint:deps` (part of `npm test`).
// Imports flow one way: contracts/ → pages/ | server/ | admin-spa/. See CONTRIBUTING.md, "Boundaries".
const SOURCE = '^(contracts|server|admin-spa|pages)/';
const TEST = '(\\.test\\.tsx?|^server/test-[^/]+\\.ts)$';
// What a module lets the rest of the server use: its entry file, and the two shared services older than entries.
const ENTRIES = '^server/modules/([^/]+/[^/]+\\.entry|audit/audit\\.service|deny-rules/deny-rules\\.gate)\\.ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'An import cycle makes load order matter and modules impossible to take apart.',
      from: { path: SOURCE },
      to: { circular: true },
    },
    {
      name: 'contracts-stand-alone',
      severity: 'error',
      comment: 'contracts/ runs in the browser and on the server: it imports only contracts/ and npm packages, never Node built-ins.',
      from: { path: '^contracts/', pathNot: TEST },
      to: { pathNot: '^(contracts/|node_modules/)' },
    },
    {
      name: 'pages-render-only',
      severity: 'error',
      comment: 'pages/ renders what the server hands it: contracts/ and its own helpers only.',
      from: { path: '^pages/' },
      to: { path: '^(server|admin-spa|scripts)/' },
    },
    {
      name: 'spa-through-the-api',
      severity: 'error',
      comment: 'The back office reaches the server through endpoints declared in contracts/, never by import.',
      from: { path: '^admin-spa/' },
      to: { path: '^(server|pages|scripts)/' },
    },
    {
      name: 'screens-apart',
      severity: 'error',
      comment: 'A screen never imports another screen: what two screens share moves down into admin-spa/components/ or admin-spa/lib/.',
      from: { path: '^admin-spa/screens/([^/]+)/' },
      to: { path: '^admin-spa/screens/', pathNot: '^admin-spa/screens/$1/' },
    },
    {
      name: 'spa-shared-below-screens',
      severity: 'error',
      comment: 'admin-spa/components/, lib/ and layouts/ are shared by the screens and so import none of them (the router finds screens by glob).',
      from: { path: '^admin-spa/(components|lib|layouts)/' },
      to: { path: '^admin-spa/screens/' },
    },
    {
      name: 'server-not-into-ui',
      severity: 'error',
      comment:
        'The server shares code with pages/ and the SPA only through contracts/. The one bridge is the public page renderer, ' +
        'which hands views to pages/ (through Vike\'s build, or the same document functions when there is no build).',
      from: { path: '^server/', pathNot: '^server/modules/landings/public/renderer\\.ts$' },
      to: { path: '^(pages|admin-spa|scripts)/' },
    },
    {
      name: 'modules-through-shared-entries',
      severity: 'error',
      comment:
        'A module reaches another only through its entry (<module>.entry.ts: what the module lets others use), audit ' +
        '(audit.service.ts) or the deny-rule gate (deny-rules.gate.ts); everything else goes through the typed links in ' +
        'server/links.ts, or moves down into contracts/, lib/ or db/.',
      from: { path: '^server/modules/([^/]+)/', pathNot: TEST },
      to: {
        path: '^server/modules/',
        pathNot: ['^server/modules/$1/', ENTRIES],
      },
    },
    {
      name: 'delivery-below-leads',
      severity: 'error',
      comment:
        'Accepting leads writes the delivery outbox (leads → delivery.entry.ts), so delivery never imports leads: what it ' +
        'needs of them comes through the links (matchingLeads) or is handed in (the worker\'s recordEvents).',
      from: { path: '^server/modules/delivery/', pathNot: TEST },
      to: { path: '^server/modules/leads/' },
    },
    {
      name: 'worker-runs-jobs-only',
      severity: 'error',
      comment: 'server/worker/ is the process that runs jobs: it reaches the modules only through their entries.',
      from: { path: '^server/worker/', pathNot: TEST },
      to: { path: '^server/modules/', pathNot: ENTRIES },
    },
    {
      name: 'nothing-imports-the-worker',
      severity: 'error',
      comment: 'Modules, plugins, lib and db never import server/worker/: the worker runs them, not the other way round (app.ts starts it).',
      from: { path: '^server/(modules|plugins|lib|db)/', pathNot: TEST },
      to: { path: '^server/worker/' },
    },
    {
      name: 'lower-layers-stay-low',
      severity: 'error',
      comment: 'server/lib and server/db are below the modules and plugins: they import neither.',
      from: { path: '^server/(lib|db)/', pathNot: TEST },
      to: { path: '^server/(modules|plugins)/|^server/(app|links)\\.ts$' },
    },
    {
      name: 'lib-below-db',
      severity: 'error',
      comment:
        'server/lib holds helpers without SQL and sits below server/db: db/ may use lib/ (passwords, errors, Redis), never the reverse. ' +
        'What needs the database or the notifier (a unique-constraint 409, cross-process messages) lives in db/. ' +
        'lib/ is the ground floor of the server: it imports no other part of it (config.ts included; it takes plain settings).',
      from: { path: '^server/lib/', pathNot: TEST },
      to: { path: '^server/', pathNot: '^server/lib/' },
    },
    {
      name: 'plugins-cross-cutting',
      severity: 'error',
      comment:
        'Plugins are cross-cutting (session, access, errors): of the modules they know only audit (the actor). The session ' +
        'look-up they need is server/db/sessions.ts, so plugins/auth.ts and modules/auth never import each other both ways.',
      from: { path: '^server/plugins/', pathNot: TEST },
      to: { path: '^server/modules/', pathNot: '^server/modules/audit/' },
    },
    {
      name: 'session-plugin-from-auth-routes-only',
      severity: 'error',
      comment:
        'Routes get the session from defineRoute (plugins/route.ts: auth, actor, shopId). Only the auth module\'s routes, which ' +
        'set and clear the cookie, import plugins/auth.ts (its name and the session policy).',
      from: { path: '^server/modules/', pathNot: [TEST, '^server/modules/auth/auth\\.routes\\.ts$'] },
      to: { path: '^server/plugins/auth\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|coverage|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
