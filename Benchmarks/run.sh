#!/usr/bin/env bash
# Runs the release-build benchmarks. `make bench` builds first.
set -euo pipefail
cd "$(dirname "$0")/.."
.build/release/healthetl-bench "${BENCH_RECORDS:-1000000}"
