// `npm test` builds the app into a separate folder (REMIX_BUILD_DIR=.data/e2e-build) so that a
// running `npm run dev` keeps its own build/ and public/build. Default: build/ + public/build.
const outDir = process.env.REMIX_BUILD_DIR;

/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ...(outDir
    ? {
        serverBuildPath: `${outDir}/index.js`,
        assetsBuildDirectory: `${outDir}/public/build`,
        cacheDirectory: `${outDir}/.cache`,
      }
    : {}),
  // Classic Remix compiler (design card): routes in app/routes, flat-routes convention of Remix v2.
  // A route's server half is its `.server` sibling (orders.$id.tsx + orders.$id.server.ts), never a route itself.
  ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}", "**/*.server.{ts,tsx}"],
  serverModuleFormat: "esm",
  serverPlatform: "node",
  // Workflow and worker code never enters the web bundle; these stay external on the server.
  serverDependenciesToBundle: [],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    // Off: with 86 routes the whole route manifest is one small cacheable file (build/manifest-*.js), while lazy
    // discovery makes every HTML page compute and inline its own partial manifest (matchRoutes once per path
    // segment, ~5 % of the web process's CPU in bench:orders --prod; docs/performance.md "Orders").
    v3_lazyRouteDiscovery: false,
    v3_singleFetch: true,
  },
};
