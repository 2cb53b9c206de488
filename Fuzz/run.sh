#!/usr/bin/env bash
# Runs the fuzz targets Fuzz/build.sh built, one after another, each for FUZZ_SECONDS (default
# 600), starting from its committed seeds (Fuzz/<name>/corpus, never written to) and from what
# earlier runs on this machine found ($FUZZ_BUILD_DIR/corpus/<name>, where new inputs go). Prints
# one line per target (executions, executions per second, coverage) and fails if any target
# crashed, tripped a sanitizer, timed out or ran out of memory; the input that did it is kept in
# $FUZZ_BUILD_DIR/artifacts/<name>/ and the fuzzer's report in $FUZZ_BUILD_DIR/logs/<name>.log.
#
#   Fuzz/run.sh [name ...]     all targets, or the ones named
#
# Reproduce a saved input with: .build-fuzz/bin/<name> <file> (with SWIFT_BACKTRACE=enable=no).
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD_DIR=${FUZZ_BUILD_DIR:-.build-fuzz}
SECONDS_EACH=${FUZZ_SECONDS:-600}
TARGETS=(xml zip hae-json hae-document wire-batch sse health-connect health-connect-values fit)
[ $# -gt 0 ] && TARGETS=("$@")

# Swift's own crash reporter waits on a process libFuzzer is still inside; libFuzzer and
# AddressSanitizer report crashes themselves.
export SWIFT_BACKTRACE=enable=no
# Files the targets write their input to (readers that take a path), removed at the end: in
# shared memory when there is some, as thousands are written a second.
scratch_parent=${TMPDIR:-/tmp}
[ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ] && scratch_parent=/dev/shm
FUZZ_SCRATCH=$(mktemp -d "$scratch_parent/healthetl-fuzz.XXXXXX")
export FUZZ_SCRATCH
trap 'rm -rf "$FUZZ_SCRATCH"' EXIT

failed=()
for name in "${TARGETS[@]}"; do
    binary=$BUILD_DIR/bin/$name
    [ -x "$binary" ] || { echo "Fuzz/run.sh: $binary is missing; run Fuzz/build.sh first" >&2; exit 1; }
    [ -d "Fuzz/$name/corpus" ] || { echo "Fuzz/run.sh: Fuzz/$name/corpus is missing" >&2; exit 1; }
    corpus=$BUILD_DIR/corpus/$name
    artifacts=$BUILD_DIR/artifacts/$name
    log=$BUILD_DIR/logs/$name.log
    mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
    # At most 20 s per input (the slowest seeds take well under a second) and 2 GB of memory;
    # LeakSanitizer reports memory an input left unreachable.
    status=0
    "$binary" -max_total_time="$SECONDS_EACH" -timeout=20 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$artifacts/" "$corpus" "Fuzz/$name/corpus" >"$log" 2>&1 \
        || status=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    coverage=$(grep -o 'cov: [0-9]* ft: [0-9]* corp: [0-9]*/[0-9]*[a-zA-Z]*' "$log" | tail -1 || true)
    if [ "$status" -eq 0 ]; then
        printf 'Fuzz/run.sh: %-22s ok %10s runs in %ss, %6s/s, %s\n' \
            "$name" "${runs:-?}" "$SECONDS_EACH" "${rate:-?}" "${coverage:-?}"
    else
        failed+=("$name")
        printf 'Fuzz/run.sh: %-22s FAILED (exit %s) after %s runs; see %s\n' "$name" "$status" "${runs:-?}" "$log"
        grep -E '^(==[0-9]+==ERROR|SUMMARY|Fatal error|.*Fatal error:)|Test unit written to|^artifact_prefix' "$log" \
            | head -8 | sed 's/^/    /' || true
    fi
done

if [ ${#failed[@]} -gt 0 ]; then
    echo "Fuzz/run.sh: ${#failed[@]} target(s) failed: ${failed[*]}. Each input is in $BUILD_DIR/artifacts/<name>/:" \
        "turn it into a regression test and fix the parser (Docs/fuzzing.md)." >&2
    exit 1
fi
