#!/usr/bin/env bash
# Installs the third-party IL programs of the real-program suite
# (tests/e2e/realprograms_test.go) under .deps/realprograms/, idempotently:
# Debian packages are fetched with `apt-get download` and unpacked with
# `dpkg -x` (nothing is installed system-wide), pythonnet comes from PyPI.
#
#   bin/     mcs.exe (mono-mcs), ilasm.exe and ikdasm.exe (mono-devel) with
#            PEAPI.dll and Mono.Security.dll, Mono.Cecil.dll (Cecil 0.9.5),
#            nunit.framework.dll (NUnit 2.6), ICSharpCode.SharpZipLib.dll (0.84),
#            dnlib.dll (2.1), ICSharpCode.NRefactory{,.CSharp}.dll (5.0)
#   ref45/   Mono's 4.5 mscorlib, System and System.Core, which mcs.exe
#            compiles against (-nostdlib) when it runs on CoreCLR
#   python/  pythonnet and clr_loader (pip --target)
set -euo pipefail
cd "$(dirname "$0")/.."
DEST="$PWD/.deps/realprograms"
STAMP="$DEST/.installed-v3"
log() { printf 'deps: %s\n' "$*" >&2; }

[ -f "$STAMP" ] && exit 0

PKGS=(mono-mcs libmono-corlib4.5-dll libmono-system4.0-cil libmono-system-core4.0-cil
  libmono-cecil-cil libmono-peapi4.0a-cil libmono-security4.0-cil
  libnunit-framework2.6.3-cil libmono-sharpzip4.84-cil libdnlib2.1-cil
  libicsharpcode-nrefactory5.0-cil libicsharpcode-nrefactory-csharp5.0-cil mono-devel)
CACHE="$PWD/.deps/cache/realprograms"
mkdir -p "$CACHE"
missing=()
for p in "${PKGS[@]}"; do
  ls "$CACHE/${p}"_*.deb >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  log "downloading ${missing[*]} (Debian)"
  if ! (cd "$CACHE" && apt-get download "${missing[@]}" >/dev/null 2>&1); then
    apt-get update -qq
    (cd "$CACHE" && apt-get download "${missing[@]}" >/dev/null 2>&1)
  fi
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for p in "${PKGS[@]}"; do dpkg -x "$(ls "$CACHE/${p}"_*.deb | head -1)" "$tmp/root"; done
m="$tmp/root/usr/lib/mono"
gac() { ls "$m"/gac/"$1"/*/"$1".dll | head -1; }
out="$tmp/out"
mkdir -p "$out/bin" "$out/ref45"
cp "$m/4.5/mcs.exe" "$m/4.5/ilasm.exe" "$m/4.5/ikdasm.exe" "$out/bin/"
cp "$(gac PEAPI)" "$(gac Mono.Security)" "$(gac ICSharpCode.SharpZipLib)" "$out/bin/"
cp "$tmp/root/usr/lib/mono-cecil/Mono.Cecil.dll" "$out/bin/"
cp "$tmp/root"/usr/lib/cli/nunit.framework-2.6*/nunit.framework.dll "$out/bin/"
cp "$tmp/root"/usr/lib/cli/dnlib-2.1/dnlib.dll "$tmp/root"/usr/lib/cli/ICSharpCode.NRefactory*-5.0/*.dll "$out/bin/"
cp "$m/4.5/mscorlib.dll" "$(gac System)" "$(gac System.Core)" "$out/ref45/"

if python3 -m pip --version >/dev/null 2>&1; then
  log "installing pythonnet (PyPI) for the hosted-runtime case"
  python3 -m pip install --quiet --disable-pip-version-check --no-warn-script-location \
    --target "$out/python" pythonnet >/dev/null 2>&1 ||
    log "pythonnet not installed: the hosted-runtime case is skipped"
fi

rm -rf "$DEST.partial" "$DEST"
mv "$out" "$DEST.partial"
mv "$DEST.partial" "$DEST"
touch "$STAMP"
log "installed the real programs at $DEST"
