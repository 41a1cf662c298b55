#!/usr/bin/env bash
# Install the Debian packages that the cluster and its tests need (PostgreSQL's server, HAProxy)
# when they are missing. Used by `make cluster` and by .ci/run; as root it uses apt-get, otherwise
# it says what to install.
set -euo pipefail
missing=()
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null || missing+=(postgresql)
command -v haproxy >/dev/null || [ -x /usr/sbin/haproxy ] || missing+=(haproxy)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "the cluster needs: ${missing[*]} (install them with: sudo apt-get install ${missing[*]})" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
