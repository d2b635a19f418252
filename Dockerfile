# syntax=docker/dockerfile:1
# erp-sync worker image: compiled JavaScript, production dependencies only, runs as the unprivileged
# `node` user. Build: docker build -t erp-billing-sync .   Run: see docker-compose.yml and docs/operations.md.

# Node 24, an LTS line in support (26 works too: --build-arg NODE_IMAGE=node:26-bookworm-slim).
ARG NODE_IMAGE=node:24-bookworm-slim

# 1. Production dependencies only. --ignore-scripts: the one install script in the tree
#    (msgpackr-extract, an optional native speed-up) is not needed; msgpackr falls back to JavaScript.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

# 2. Compile TypeScript with the full dependency set.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY connectors ./connectors
COPY jobs ./jobs
COPY operations ./operations
COPY api ./api
COPY console ./console
COPY app ./app
COPY cli ./cli
COPY sandbox ./sandbox
# bench/ and the tests stay out of the image: tsconfig.build.json compiles only what is copied here.
RUN npm run build

# 3. Runtime: node_modules from (1), dist from (2). Files stay root-owned and read-only to the process.
FROM ${NODE_IMAGE} AS runtime
# The commit the image was built from, for erpsync_build_info (docker build --build-arg ERP_SYNC_COMMIT=$(git rev-parse --short HEAD)).
ARG ERP_SYNC_COMMIT=unknown
ENV ERP_SYNC_COMMIT=${ERP_SYNC_COMMIT}
ENV NODE_ENV=production
# No NODE_OPTIONS heap size: erp-sync sizes its own heap whatever the host's memory (192 MiB old space,
# 4 MiB semi-spaces, MALLOC_ARENA_MAX=2; cli/heap-sizing.ts) and collects in full when its RSS passes
# 180 MiB. Raise them with -e ERP_SYNC_HEAP_MB=<MiB> -e ERP_SYNC_RSS_MARK_MB=<MiB> (docs/operations.md, "Memory").
WORKDIR /app
COPY package.json ./
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The runbook every worker serves at /runbook (the alerts' runbook_url).
COPY docs/operations.md ./docs/operations.md
USER node
# /metrics, /healthz, /readyz, /runbook, /api/v1, /console, /admin/queues (http.port in the config; HEALTH_PORT if you change it).
EXPOSE 9464
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.HEALTH_PORT||9464)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["node", "dist/cli/main.js"]
CMD ["worker", "--config", "/etc/erp-sync/erp-sync.yaml"]
