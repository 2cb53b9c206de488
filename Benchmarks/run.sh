#!/usr/bin/env bash
# Runs the release-build benchmarks. `make bench` builds first.
set -euo pipefail
cd "$(dirname "$0")/.."
.build/release/healthetl-bench "${BENCH_RECORDS:-1000000}"

# Loading synthetic history into a fresh store: the writer should be the limit.
store=$(mktemp -d "${TMPDIR:-/tmp}/healthetl-simulate.XXXXXX")
trap 'rm -rf "$store"' EXIT
.build/release/healthetl --store "$store/store" simulate --days "${BENCH_SIMULATE_DAYS:-365}" --seed 1 --json |
    python3 -c '
import json, sys
r = json.load(sys.stdin)
n = sum(lane["records"] for lane in r["lanes"].values())
print("simulate --days load %s records in %.2f s = %s /s, store writer busy %d %% of the run"
      % (format(n, ","), r["elapsed_s"], format(int(r["records_per_s"]), ","), r["writer_busy"] * 100))'
