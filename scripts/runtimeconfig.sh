#!/usr/bin/env bash
# Prints a runtimeconfig.json that runs an mcs-built app on the runtime
# installed at $1 (a .deps/ runtime folder).
set -euo pipefail
ver=$(basename "$(ls -d "$1"/shared/Microsoft.NETCore.App/* | head -1)")
printf '{"runtimeOptions":{"framework":{"name":"Microsoft.NETCore.App","version":"%s"},"configProperties":{"System.Globalization.Invariant":true}}}\n' "$ver"
