# Production images (see docker-compose.yml for the whole topology, config/topology.mjs for what each runs):
#   the app (default target): web and Temporal worker, same image, different command
#     docker build -t wholesale .
#     web:    docker run ... wholesale                 (npm start)
#     worker: docker run ... wholesale npm run worker  (NODE_ENV=production: prebuilt workflow bundle)
#   `temporal`: the Temporal server (temporal-server, one service per container), its SQL schema tool, its Web UI
#     and the CLI, built with `go install` from the Go module proxy at the versions of config/versions.mjs
#     VERSIONS, as `npm run tools -- --prod` builds them for `npm run prod`; the config of config/temporal*.
#     docker build --target temporal -t wholesale-temporal .

FROM golang:1.25-bookworm AS temporal-build
ARG TEMPORAL_SERVER_VERSION=1.29.1
ARG TEMPORAL_UI_VERSION=2.41.0
ARG TEMPORAL_CLI_VERSION=1.5.1
ENV GOFLAGS=-buildvcs=false CGO_ENABLED=0
RUN GOBIN=/out/server go install go.temporal.io/server/cmd/server@v${TEMPORAL_SERVER_VERSION} go.temporal.io/server/cmd/tools/sql@v${TEMPORAL_SERVER_VERSION} \
 && GOBIN=/out/ui go install github.com/temporalio/ui-server/v2/cmd/server@v${TEMPORAL_UI_VERSION} \
 && GOBIN=/out/cli go install github.com/temporalio/cli/cmd/temporal@v${TEMPORAL_CLI_VERSION}

FROM debian:bookworm-slim AS temporal
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates && rm -rf /var/lib/apt/lists/*
COPY --from=temporal-build /out/server/server /usr/local/bin/temporal-server
COPY --from=temporal-build /out/server/sql /usr/local/bin/temporal-sql-tool
COPY --from=temporal-build /out/ui/server /usr/local/bin/temporal-ui-server
COPY --from=temporal-build /out/cli/temporal /usr/local/bin/temporal
COPY config/temporal /etc/temporal/config/temporal
COPY config/temporal-ui /etc/temporal/config/temporal-ui
WORKDIR /etc/temporal
USER nobody
ENTRYPOINT ["temporal-server"]

FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# npm ci applies the dependency patches (postinstall: patch-package, ADR 0022).
COPY scripts/patches ./scripts/patches
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY . .
# remix build (build/ + public/build) and the workflow bundle (build/workflow-bundle.js)
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production \
    PORT=3000
COPY --from=build --chown=node:node /app /app
USER node
EXPOSE 3000
CMD ["npm", "start"]
