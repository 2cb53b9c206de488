#!/usr/bin/env bash
# fit-bench.sh — the FIT import benchmark `make bench` runs after the release build.
#
# Writes a Garmin-like folder of about 5,000 FIT files outside the timed part: BENCH_FIT_SEEDS
# watches (default 4) of BENCH_FIT_DAYS days each (default 365: a year of monitoring, sleep,
# weigh-ins and activities), `healthetl simulate --export fit DIR/seed-N --days D --seed N`, about
# 7.3 M FIT data messages that become about 10.4 M samples. Then, each with the files in the page
# cache:
#   import     healthetl --store S import DIR --json into a fresh store, under /usr/bin/time -v:
#              wall time, samples stored/s (accepted + flagged + duplicates), FIT data messages/s
#              (the generator's totals) and peak RSS
#   decode     the `fit` adapter alone over the whole folder (`healthetl-bench 1 DIR fit`): split,
#              CRC, decode and map, handing records to a handler that keeps nothing — no
#              normalizer, no store; data messages/s (the import's reading thread can go no faster)
#   fitdecode  the pinned fitdecode (Tests/tools/test-venv.sh) reading every file fully
#              (`for frame in fitdecode.FitReader(path)`), data messages/s, in one process; it must
#              find the generator's message count
# Targets: >= 1,000,000 data messages/s decoded (the adapter alone), >= 300,000
# samples/s stored end to end, decoding >= 30x fitdecode's messages/s,
# peak RSS of the import <= 100 MB.
#
# Builds nothing: it expects .build/release/healthetl and healthetl-bench (and installs fitdecode into .build/test-venv
# when it is missing). Exits non-zero only when a tool fails; a missed target prints MISSED.
#
# Environment:
#   BENCH_FIT_DAYS     days each watch wrote (default 365)
#   BENCH_FIT_SEEDS    watches, seeds 1..N, each in its own subfolder (default 4: about 5,000 files)
#   BENCH_SKIP_PEER=1  do not install or run fitdecode (no ratio: that target reads MISSED)
#   BENCH_KEEP=1       keep the work directory and print its path
#   BENCH_JSON_DIR=DIR also write every figure and target verdict to DIR/fit.json
#   HEALTHETL, HEALTHETL_BENCH  override the binaries
set -uo pipefail

case ${BENCH_JSON_DIR:-} in '' | /*) ;; *) BENCH_JSON_DIR=$(pwd)/$BENCH_JSON_DIR ;; esac # from the caller's directory
cd "$(dirname "$0")/.." || exit 1
ROOT=$(pwd)
DAYS=${BENCH_FIT_DAYS:-365}
SEEDS=${BENCH_FIT_SEEDS:-4}
HEALTHETL=${HEALTHETL:-$ROOT/.build/release/healthetl}
HEALTHETL_BENCH=${HEALTHETL_BENCH:-$ROOT/.build/release/healthetl-bench}

say() { printf '==> %s\n' "$*" >&2; }
fail() { printf 'fit-bench: %s\n' "$*" >&2; exit 1; }

for value in "$DAYS" "$SEEDS"; do
    case $value in '' | 0 | *[!0-9]*) fail "BENCH_FIT_DAYS and BENCH_FIT_SEEDS must be positive integers" ;; esac
done
[ -x "$HEALTHETL" ] || fail "missing $HEALTHETL — build the release first (make bench does)"
[ -x "$HEALTHETL_BENCH" ] || fail "missing $HEALTHETL_BENCH — build the release first (make bench does)"
/usr/bin/time -v true >/dev/null 2>&1 || fail "GNU /usr/bin/time is unavailable (apt-get install time)"
if [ -n "${BENCH_JSON_DIR:-}" ]; then mkdir -p "$BENCH_JSON_DIR" || fail "cannot create $BENCH_JSON_DIR"; fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/healthetl-fit-bench.XXXXXX") || fail "cannot create a work directory"
cleanup() { if [ "${BENCH_KEEP:-0}" = 1 ]; then say "keeping $WORK"; else rm -rf "$WORK"; fi; }
trap cleanup EXIT
mkdir -p "$WORK/fit" "$WORK/logs"

# The input, untimed: one subfolder a watch; the generators' summaries beside the folder, not in it.
say "writing $SEEDS watches' FIT files of $DAYS days each"
for seed in $(seq 1 "$SEEDS"); do
    "$HEALTHETL" simulate --export fit "$WORK/fit/seed-$seed" --days "$DAYS" --seed "$seed" --json \
        >"$WORK/logs/gen-$seed.json" || fail "the generator failed (seed $seed)"
done

measure() { # name command...: logs/NAME.{out,err,time,rc}
    local name=$1
    shift
    /usr/bin/time -v -o "$WORK/logs/$name.time" "$@" >"$WORK/logs/$name.out" 2>"$WORK/logs/$name.err"
    echo $? >"$WORK/logs/$name.rc"
}
warm() { find "$@" -type f -exec cat {} + >/dev/null 2>&1 || true; } # every run starts from the page cache

say "importing the folder into a fresh store"
warm "$WORK/fit"
measure import "$HEALTHETL" --store "$WORK/store" import "$WORK/fit" --json
say "decoding: the fit adapter alone over the whole folder, no normalizer, no store"
warm "$WORK/fit"
measure decode "$HEALTHETL_BENCH" 1 "$WORK/fit" fit

PEER_PYTHON=
if [ "${BENCH_SKIP_PEER:-0}" = 1 ]; then
    say "skipping fitdecode (BENCH_SKIP_PEER=1)"
    echo skipped >"$WORK/logs/peer.status"
elif PEER_PYTHON=$("$ROOT/Tests/tools/test-venv.sh"); then
    say "fitdecode: reading every file"
    echo ready >"$WORK/logs/peer.status"
    warm "$WORK/fit"
    measure fitdecode "$PEER_PYTHON" - "$WORK/fit" <<'PY'
import importlib.metadata, json, os, sys, time
import fitdecode
paths = sorted(os.path.join(folder, name) for folder, _, names in os.walk(sys.argv[1])
               for name in names if name.lower().endswith(".fit"))
messages, errors = 0, []
started = time.perf_counter()
for path in paths:
    try:
        for frame in fitdecode.FitReader(path):
            if isinstance(frame, fitdecode.FitDataMessage):
                messages += 1
    except Exception as error:  # counted, not fatal: the report says so
        errors.append(f"{os.path.relpath(path, sys.argv[1])}: {type(error).__name__}: {error}")
seconds = time.perf_counter() - started
print(json.dumps({"version": importlib.metadata.version("fitdecode"), "files": len(paths), "data_messages": messages,
                  "seconds": seconds, "errors": errors[:5], "failed_files": len(errors)}))
PY
else
    say "fitdecode could not be installed (Tests/tools/test-venv.sh)"
    echo setup-failed >"$WORK/logs/peer.status"
fi

# The report (its JSON document: Benchmarks/benchjson.py).
PYTHONPATH="$ROOT/Benchmarks" PYTHONDONTWRITEBYTECODE=1 \
    python3 - "$WORK" "$DAYS" "$SEEDS" "${BENCH_JSON_DIR:-}" <<'PY'
import json, os, re, sys
import benchjson

work, days, seeds, json_dir = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
logs = os.path.join(work, "logs")
failures, figures, targets = [], [], []

def read(name, default=None): return benchjson.read_text(os.path.join(logs, name), default)
def tail(name, lines=8):
    text = ((read(f"{name}.err", "") or "") + (read(f"{name}.out", "") or "")).strip().splitlines()
    return "\n".join("      " + line for line in text[-lines:]) or "      (no output)"
def target(name, met, value, limit, text): targets.append(benchjson.target(name, met, value, limit, text))
def mb(t): return t["rss"] / 1048576  # /usr/bin/time's kilobytes / 1024, as the other import benches count a MB

# What the generator wrote, per watch and in all.
written = [json.loads(read(f"gen-{seed}.json")) for seed in range(1, seeds + 1)]
files = sum(len(w["files"]) for w in written)
fit_files = sum(w["fit_files"] for w in written)
messages = sum(sum(w["messages"].values()) for w in written)
first_messages = sum(written[0]["messages"].values())
total_bytes = sum(w["bytes"] for w in written)
print(f"input: {seeds} watches x {days} days ({written[0]['first_day']} .. {written[0]['last_day']}): "
      f"{files:,} files ({fit_files:,} FIT files), {messages:,} data messages, {total_bytes / 1e6:,.1f} MB")
kinds = {}
for w in written:
    for kind, count in w["files_by_kind"].items():
        kinds[kind] = kinds.get(kind, 0) + count
print(f"       files by kind: {', '.join(f'{kind} {count:,}' for kind, count in sorted(kinds.items()))}")

def run(name, label):
    """A healthetl import's timing and JSON report, or None (a failure said) when it did not complete."""
    t = benchjson.timing(logs, name)
    report = benchjson.last_json(read(f"{name}.out"))
    if t is None or t["rc"] != 0 or report is None:
        failures.append(f"{label} failed (exit {None if t is None else t['rc']}):\n{tail(name)}")
        return None, None
    if report.get("complete") is not True:
        failures.append(f"{label} reported the import incomplete: {report.get('problem') or report.get('warnings')}")
    return t, report

print(f"{'run':<22} {'wall s':>8} {'CPU s':>8} {'messages':>11} {'msgs/s':>11} {'samples':>11} {'samples/s':>11} {'RSS MB':>8}")
imported, report = run("import", "the import")
import_rate = rss = import_messages_rate = None
if imported:
    stored = report["accepted"] + report["flagged"] + report["duplicates"]
    import_rate, import_messages_rate = stored / imported["wall"], messages / imported["wall"]
    rss = mb(imported)
    print(f"{'import (end to end)':<22} {imported['wall']:>8.2f} {imported['cpu']:>8.2f} {messages:>11,} "
          f"{import_messages_rate:>11,.0f} {stored:>11,} {import_rate:>11,.0f} {rss:>8.1f}")
    figures.append({"name": "import", "tool": "healthetl", "files": files, "data_messages": messages,
                    "samples": stored, "records_read": report["records_read"], "workouts": report.get("workouts"),
                    "wall_s": imported["wall"], "cpu_s": round(imported["cpu"], 2), "samples_per_s": round(import_rate),
                    "messages_per_s": round(import_messages_rate), "peak_rss_mb": round(rss, 1)})
# healthetl-bench's line: "fit read   ... (N records, E events in S s, adapter only, no store; complete true)".
decode_rate = None
decoded = benchjson.timing(logs, "decode")
read_line = re.search(r"\((\d+) records, (\d+) events in ([0-9.]+) s, adapter only, no store; complete (\w+)\)",
                      read("decode.out", "") or "")
if decoded is None or decoded["rc"] != 0 or read_line is None:
    failures.append(f"the decode run failed (exit {None if decoded is None else decoded['rc']}):\n{tail('decode')}")
else:
    read_records, read_seconds = int(read_line.group(1)), float(read_line.group(3))
    decode_rate = messages / read_seconds
    if read_line.group(4) != "true":
        failures.append("the fit adapter reported the folder incomplete")
    print(f"{'decode (adapter alone)':<22} {read_seconds:>8.2f} {decoded['cpu']:>8.2f} {messages:>11,} "
          f"{decode_rate:>11,.0f} {read_records:>11,} {read_records / read_seconds:>11,.0f} {mb(decoded):>8.1f}")
    figures.append({"name": "decode (adapter alone)", "tool": "healthetl", "files": files, "data_messages": messages,
                    "records": read_records, "wall_s": read_seconds, "cpu_s": round(decoded["cpu"], 2),
                    "messages_per_s": round(decode_rate), "peak_rss_mb": round(mb(decoded), 1),
                    "note": "the fit adapter alone: split, CRC, decode and map; no normalizer, no store"})

peer_status = (read("peer.status", "skipped") or "skipped").strip()
peer_rate = None
peer_version = None
if peer_status == "ready":
    t = benchjson.timing(logs, "fitdecode")
    peer = benchjson.last_json(read("fitdecode.out"))
    if t is None or t["rc"] != 0 or peer is None:
        failures.append(f"fitdecode failed (exit {None if t is None else t['rc']}):\n{tail('fitdecode')}")
    else:
        peer_version = peer["version"]
        peer_rate = peer["data_messages"] / peer["seconds"]
        print(f"{'fitdecode ' + peer_version:<22} {peer['seconds']:>8.2f} {t['cpu']:>8.2f} {peer['data_messages']:>11,} "
              f"{peer_rate:>11,.0f} {'-':>11} {'-':>11} {mb(t):>8.1f}")
        figures.append({"name": "fitdecode", "tool": f"fitdecode {peer_version}", "files": peer["files"],
                        "data_messages": peer["data_messages"], "wall_s": round(peer["seconds"], 2), "cpu_s": round(t["cpu"], 2),
                        "messages_per_s": round(peer_rate), "peak_rss_mb": round(mb(t), 1),
                        "failed_files": peer["failed_files"]})
        if peer["failed_files"] or peer["data_messages"] != messages or peer["files"] != files:
            failures.append(f"fitdecode read {peer['data_messages']:,} data messages in {peer['files']:,} files "
                            f"({peer['failed_files']} failed: {peer['errors']}); the generator wrote {messages:,} "
                            f"in {files:,}")
elif peer_status == "setup-failed":
    failures.append("fitdecode could not be installed (Tests/tools/test-venv.sh)")
if peer_rate and import_messages_rate:
    print(f"healthetl end to end reads {import_messages_rate / peer_rate:.1f}x fitdecode's messages/s; "
          f"decoding (adapter alone) {decode_rate / peer_rate if decode_rate else 0:.1f}x")
print()

if decode_rate is not None:
    target("decode throughput", decode_rate >= 1_000_000, round(decode_rate), ">= 1,000,000 messages/s",
           f"decode: {decode_rate:,.0f} data messages/s, the fit adapter alone (split, CRC, decode, map; "
           "target >= 1,000,000)")
else:
    target("decode throughput", False, None, ">= 1,000,000 messages/s", "decode: the decode run did not complete")
if import_rate is not None:
    target("import throughput", import_rate >= 300_000, round(import_rate), ">= 300,000 samples/s",
           f"import: {import_rate:,.0f} samples/s stored end to end (target >= 300,000)")
    target("peak RSS", rss <= 100, round(rss, 1), "<= 100 MB", f"import peak RSS {rss:.1f} MB (target <= 100 MB)")
else:
    target("import throughput", False, None, ">= 300,000 samples/s", "import: did not complete")
    target("peak RSS", False, None, "<= 100 MB", "import: did not complete")
if peer_rate and decode_rate:
    ratio = decode_rate / peer_rate
    target("speed vs fitdecode", ratio >= 30, round(ratio, 1), ">= 30x",
           f"speed: decoding {decode_rate:,.0f} / fitdecode {peer_rate:,.0f} messages/s = {ratio:.1f}x "
           "(target >= 30x)")
else:
    why = {"skipped": "skipped", "setup-failed": "not installed"}.get(peer_status, "no valid run")
    target("speed vs fitdecode", False, None, ">= 30x", f"speed: no fitdecode figure to compare with ({why}; target >= 30x)")
benchjson.print_targets(targets, failures)

if json_dir:
    benchjson.write_document(
        os.path.join(json_dir, "fit.json"), "fit",
        "FIT: a folder of simulated watches' files imported, the adapter alone, fitdecode on the same files",
        figures, targets, failures, days=days, watches=seeds, files=files, fit_files=fit_files,
        data_messages=messages, bytes=total_bytes, fitdecode=peer_version or peer_status)
PY
