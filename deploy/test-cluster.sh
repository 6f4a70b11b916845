#!/bin/sh
# compose.yaml's shape run with the real image: two Parley containers of IMAGE (its start command, its
# user, signals from the runtime) on PostgreSQL and Redis behind nginx, and e2e/balanced.spec.ts against
# them: an answer resumed and stopped through the other instance, an approval decided there, a crash
# (SIGKILL) marked interrupted, a member's rate limit counted across both, and a rolling restart
# (`podman kill --signal SIGTERM` on the instance streaming an answer) that loses nothing. PostgreSQL,
# Redis and nginx are the machine's own: no image registry is reachable here for their images.
#
#   deploy/test-image.sh && deploy/test-cluster.sh
#
# Needs: the image (IMAGE, default localhost/parley:test, built by deploy/test-image.sh), a production
# build of this tree (the e2e suite's own server: `npx next build`), nginx, TEST_DATABASE_URL (a
# PostgreSQL the containers reach on 127.0.0.1) and TEST_REDIS_URL. PODMAN as for test-image.sh.
set -eu

IMAGE=${IMAGE:-localhost/parley:test}
PODMAN=${PODMAN:-podman}
: "${TEST_DATABASE_URL:?set TEST_DATABASE_URL (a PostgreSQL on 127.0.0.1 whose user may create databases)}"
: "${TEST_REDIS_URL:?set TEST_REDIS_URL (a Redis on 127.0.0.1)}"
$PODMAN image exists "$IMAGE" || { echo "test-cluster: no image $IMAGE (deploy/test-image.sh builds it)" >&2; exit 1; }

started=$(date +%s)
PARLEY_TEST_IMAGE="$IMAGE" PARLEY_TEST_PODMAN="$PODMAN" node scripts/e2e.mjs e2e/balanced.spec.ts --project=alone --no-deps
echo "test-cluster: two containers of $IMAGE behind nginx passed in $(($(date +%s) - started)) s"
