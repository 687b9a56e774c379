# Production image for the web app and the Temporal worker (same image, different command).
#   docker build -t wholesale .
#   web:    docker run ... wholesale                 (npm start)
#   worker: docker run ... wholesale npm run worker  (NODE_ENV=production: prebuilt workflow bundle)
# See docker-compose.yml for the whole stack.

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
