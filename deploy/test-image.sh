#!/bin/sh
# Builds the image and checks it as an operator runs it, on the embedded database: it serves
# /api/health as uid 10001 with the server in node as PID 1, keeps its data across a container restart
# (the same secret key; the second start applies no migration), stops within PARLEY_SHUTDOWN_MS with
# exit code 0, and runs as the Kubernetes manifest runs it (read-only root, no capabilities). Chats,
# a rolling restart and a crash with two containers: deploy/test-cluster.sh. Not part of `npm test`
# (building takes minutes and needs podman, and the base image: deploy/make-base-image.sh where no
# image registry is reachable); .ci/run runs both after it where podman can be installed.
#
#   deploy/test-image.sh
#   PODMAN="podman --runtime runc --cgroup-manager=cgroupfs" deploy/test-image.sh   # hosts where crun fails
#
# IMAGE (localhost/parley:test), PORT (3399) and BUILD_FLAGS (e.g. --network host) can be set;
# SKIP_BUILD=1 tests an image already built; BUILD_ONLY=1 only builds it (.ci/run builds beside the
# tests and checks afterwards).
set -eu

PODMAN=${PODMAN:-podman}
IMAGE=${IMAGE:-localhost/parley:test}
PORT=${PORT:-3399}
SHUTDOWN_MS=10000
name="parley-image-test-$$"
vol="$name-data"

cleanup() {
  $PODMAN rm -f "$name" "$name-ro" >/dev/null 2>&1 || true
  $PODMAN volume rm -f "$vol" "$vol-ro" "$vol-cache" >/dev/null 2>&1 || true
}
trap cleanup EXIT
fail() {
  echo "test-image: FAILED: $*" >&2
  $PODMAN logs "$name" 2>&1 | tail -n 40 >&2 || true
  exit 1
}
# Waits up to 90 s for /api/health to answer 200 (node on the host: the image has no curl either).
wait_healthy() {
  node -e '
    const url = process.argv[1];
    const until = Date.now() + 90_000;
    (async () => {
      while (Date.now() < until) {
        try { if ((await fetch(url, { signal: AbortSignal.timeout(2000) })).ok) return process.exit(0); } catch {}
        await new Promise((r) => setTimeout(r, 500));
      }
      process.exit(1);
    })();' "http://127.0.0.1:$PORT/api/health" || fail "/api/health did not answer 200 within 90 s"
}

if [ "${SKIP_BUILD:-}" != 1 ]; then
  started=$(date +%s)
  # shellcheck disable=SC2086 # BUILD_FLAGS is a list of flags
  $PODMAN build --pull=never --format docker ${BUILD_FLAGS:-} -t "$IMAGE" .
  echo "test-image: built in $(( $(date +%s) - started )) s"
fi
[ "${BUILD_ONLY:-}" != 1 ] || exit 0

$PODMAN run -d --name "$name" --network host -e PORT="$PORT" -e PARLEY_SHUTDOWN_MS="$SHUTDOWN_MS" -v "$vol:/data" "$IMAGE" >/dev/null
wait_healthy
[ "$($PODMAN exec "$name" id -u)" = 10001 ] || fail "the server does not run as uid 10001"
# PID 1 is node (no shell or npm between the runtime's signals and the server), and it is the server
# itself: Next.js names its process "next-server".
[ "$($PODMAN exec "$name" readlink /proc/1/exe)" = /usr/local/bin/node ] || fail "PID 1 is not node"
$PODMAN exec "$name" cat /proc/1/cmdline | tr '\0' ' ' | grep -q '^next-server' || fail "PID 1 is not the server (next-server)"
key=$($PODMAN exec "$name" cat /data/secret.key)
[ -n "$key" ] || fail "no secret key in /data"

# The orderly stop: exit code 0 within PARLEY_SHUTDOWN_MS (podman's own timeout is longer).
before=$(date +%s%N)
$PODMAN stop -t 30 "$name" >/dev/null
took_ms=$(( ($(date +%s%N) - before) / 1000000 ))
code=$($PODMAN inspect --format '{{.State.ExitCode}}' "$name")
[ "$code" = 0 ] || fail "stopped with exit code $code"
[ "$took_ms" -lt "$SHUTDOWN_MS" ] || fail "took $took_ms ms to stop (PARLEY_SHUTDOWN_MS=$SHUTDOWN_MS)"
echo "test-image: stopped in $took_ms ms with exit code 0"

# The same volume again: the same key, and a database that needs no migration.
$PODMAN start "$name" >/dev/null
wait_healthy
[ "$($PODMAN exec "$name" cat /data/secret.key)" = "$key" ] || fail "the secret key changed across a restart"
applied=$($PODMAN logs "$name" 2>&1 | grep -c '\[migrate\] applied' || true)
[ "$applied" = 1 ] || fail "migrations were applied $applied times over two starts (expected once: the data was not kept?)"
$PODMAN stop -t 30 "$name" >/dev/null

# As deploy/kubernetes/deployment.yaml runs it: a read-only root file system, every capability dropped,
# no privilege escalation; writable only /tmp, the data directory and Next.js's cache (emptyDirs there).
name="$name-ro"
$PODMAN run -d --name "$name" --network host -e PORT="$PORT" --read-only --tmpfs /tmp --cap-drop ALL --security-opt no-new-privileges \
  -v "$vol-ro:/data" -v "$vol-cache:/app/.next/cache" "$IMAGE" >/dev/null
wait_healthy
node -e 'fetch(process.argv[1]).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))' "http://127.0.0.1:$PORT/setup" ||
  fail "the set-up page does not render on a read-only root file system"
echo "test-image: serves, runs as uid 10001 under node as PID 1, keeps its data across a restart, stops in order, runs on a read-only root"
