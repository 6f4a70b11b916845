#!/usr/bin/env bash
# Installs pgvector (the `vector` extension knowledge bases store embeddings with) into this machine's
# PostgreSQL, from Debian's packages only: Debian's bookworm has no pgvector package, so this builds the
# pgvector source package of Debian's next release (trixie) against this server's headers
# (postgresql-server-dev-<major>), without adding that release to the machine's package sources.
# Run as root (or with sudo). Does nothing when the server already offers the extension. About 1 min.
#
#   bash scripts/install-pgvector.sh     (PGVECTOR_PSQL: how to reach the server, default as below)
set -euo pipefail

psql_cmd=${PGVECTOR_PSQL:-psql -h 127.0.0.1 -U postgres -d postgres}
suite=${PGVECTOR_DEBIAN_SUITE:-trixie}
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo -n "$@"; fi; }

if [ "$($psql_cmd -Atqc "SELECT count(*) FROM pg_available_extensions WHERE name = 'vector'")" = 1 ]; then
  echo "pgvector: already available ($($psql_cmd -Atqc "SELECT default_version FROM pg_available_extensions WHERE name = 'vector'"))"
  exit 0
fi

major=$(($($psql_cmd -Atqc "SHOW server_version_num") / 10000))
pg_config=/usr/lib/postgresql/$major/bin/pg_config
started=$(date +%s)
echo "pgvector: building it for PostgreSQL $major from Debian's $suite source package"

# The server's headers and build tools (the headers package brings the clang its bitcode is built with).
as_root apt-get update -qq || true
DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends "postgresql-server-dev-$major" make gcc libc6-dev >/dev/null

# The source, through apt with a configuration of its own: only the suite's source index, from the
# Debian mirror this machine already uses, in a temporary directory, so the machine's sources and
# binary packages stay as they are. apt checks the index's signature and the files' hashes.
. /etc/os-release
mirror=$(apt-get indextargets --format '$(REPO_URI)' "Release: $VERSION_CODENAME" | sort -u | head -n 1)
if [ -z "$mirror" ]; then
  echo "pgvector: found no Debian mirror for $VERSION_CODENAME in this machine's package sources" >&2
  exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$work/src"
echo "deb-src $mirror $suite main" > "$work/sources.list"
chmod -R a+rX "$work"
# apt downloads as its own user where there is one.
if id _apt >/dev/null 2>&1; then as_root chown _apt "$work/src"; fi
apt_opts=(-o "Dir::Etc::sourcelist=$work/sources.list" -o "Dir::Etc::sourceparts=-" -o "Dir::State::lists=$work/lists" -o "Dir::Cache=$work/cache")
as_root apt-get "${apt_opts[@]}" update -qq
(cd "$work/src" && as_root apt-get "${apt_opts[@]}" source --download-only -qq pgvector)
tar -xzf "$work"/src/pgvector_*.orig.tar.gz -C "$work/src"
src=$(find "$work/src" -maxdepth 1 -type d -name 'pgvector-*' | head -n 1)

# OPTFLAGS="": no -march=native, so the library runs on any x86-64 machine (Debian's own build does the same).
make -s -C "$src" PG_CONFIG="$pg_config" OPTFLAGS="" >/dev/null
as_root make -s -C "$src" PG_CONFIG="$pg_config" install >/dev/null

version=$($psql_cmd -Atqc "SELECT default_version FROM pg_available_extensions WHERE name = 'vector'")
if [ -z "$version" ]; then
  echo "pgvector: built and installed, but PostgreSQL $major does not offer it" >&2
  exit 1
fi
echo "pgvector: $version installed for PostgreSQL $major in $(($(date +%s) - started)) s"
