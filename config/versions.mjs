// The versions of the tools the project builds or downloads: `npm run tools` (scripts/lib/tools.mjs), `npm run
// prod` and the Dockerfile (config/topology.mjs; tests/unit/compose.test.ts checks the Dockerfile's ARGs).
// Node built-ins only, and nothing from scripts/ (scripts import config/, never the other way).

export const VERSIONS = Object.freeze({
  temporal: "1.5.1", // Temporal CLI (dev server + UI); later versions refuse `go install`
  testServer: "1.38.0", // io.temporal:temporal-test-server (keep equal to tools/test-server/pom.xml)
  stripeMock: "0.203.0", // github.com/stripe/stripe-mock
  mailpit: "1.27.11", // github.com/axllent/mailpit (mail catcher of npm run dev)
  temporalServer: "1.29.1", // go.temporal.io/server cmd/server + cmd/tools/sql (npm run prod, docker-compose.yml)
  temporalUi: "2.41.0", // github.com/temporalio/ui-server/v2 (the Web UI of npm run prod)
});
