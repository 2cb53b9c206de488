#!/usr/bin/env bash
# import-bench.sh — the end-to-end import benchmark `make bench` runs after the release build.
#
# Generates a synthetic Apple Health export in the real format (healthetl simulate --export), then times,
# in one run and on the same files:
#   peer      healthkit-to-sqlite export.zip peer.db        (pinned in requirements-peer.txt)
#   healthetl healthetl --store S import export.zip --json  (first import into a fresh store)
#   again     the same file into the same store             (resumes at its end: reads nothing)
#   reread    the same file again with --from-start         (reads it all, must add nothing)
#   4x        a 4x larger export into a fresh store          (memory must stay flat)
#   xml       the uncompressed export.xml into a fresh store (for information)
# each under /usr/bin/time -v for wall time and peak RSS, and prints a table and the targets.
#
# Builds nothing: it expects .build/release/healthetl.
# Exits non-zero only when a tool fails (or cannot be set up); a missed target prints MISSED.
#
# Environment:
#   BENCH_RECORDS  top-level Records in the export (default 300000; the targets assume >= 250000)
#   BENCH_SEED     generator seed (default 1)
#   BENCH_KEEP=1   keep the work directory (exports, stores, logs) and print its path
#   BENCH_SKIP_PEER=1  do not install or run the peer (no ratio)
#   HEALTHETL, PYTHON  override the binaries used
set -uo pipefail

cd "$(dirname "$0")/.." || exit 1
ROOT=$(pwd)

RECORDS=${BENCH_RECORDS:-300000}
SEED=${BENCH_SEED:-1}
HEALTHETL=${HEALTHETL:-$ROOT/.build/release/healthetl}
PYTHON=${PYTHON:-python3}
VENV=$ROOT/.build/bench-venv
REQUIREMENTS=$ROOT/Benchmarks/requirements-peer.txt
PEER=$VENV/bin/healthkit-to-sqlite

say() { printf '==> %s\n' "$*" >&2; }
fail() { printf 'import-bench: %s\n' "$*" >&2; exit 1; }

case $RECORDS in '' | *[!0-9]*) fail "BENCH_RECORDS must be a positive integer, not '$RECORDS'" ;; esac
case $SEED in '' | *[!0-9]*) fail "BENCH_SEED must be a non-negative integer, not '$SEED'" ;; esac
[ "$RECORDS" -ge 10 ] || fail "BENCH_RECORDS must be at least 10"
if [ "$RECORDS" -lt 250000 ]; then
    say "note: BENCH_RECORDS=$RECORDS is below 250000; the targets are meant for >= 250000 records"
fi

[ -x "$HEALTHETL" ] || fail "missing $HEALTHETL — build the release first (make bench does)"
command -v "$PYTHON" >/dev/null 2>&1 || fail "python3 is required (venv for the peer, zip, report)"

# Run as root, or through sudo.
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

# GNU time for peak RSS (Debian package `time`), installed when missing, like `make deps`.
if ! /usr/bin/time -v true >/dev/null 2>&1; then
    dpkg -s time >/dev/null 2>&1 ||
        { say "installing the Debian package time"; as_root apt-get update -qq &&
            DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq time >/dev/null; }
    /usr/bin/time -v true >/dev/null 2>&1 || fail "GNU /usr/bin/time is unavailable (apt-get install time)"
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/healthetl-bench.XXXXXX") || fail "cannot create a work directory"
cleanup() {
    if [ "${BENCH_KEEP:-0}" = 1 ]; then say "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
mkdir -p "$WORK/1x" "$WORK/4x" "$WORK/logs"

# ---------------------------------------------------------------------------------------------
# 1. The exports.
generate() { # name records
    local dir=$WORK/$1
    if ! "$HEALTHETL" simulate --export apple-health "$dir/export.zip" --records "$2" --seed "$SEED" --json \
        >"$WORK/logs/gen-$1.json" 2>"$WORK/logs/gen-$1.err" ||
        ! "$HEALTHETL" simulate --export apple-health "$dir/export.xml" --records "$2" --seed "$SEED" \
            >/dev/null 2>>"$WORK/logs/gen-$1.err"; then
        cat "$WORK/logs/gen-$1.err" >&2
        fail "healthetl simulate --export failed for $2 records"
    fi
}
say "generating a $RECORDS-record export (seed $SEED)"
generate 1x "$RECORDS"
say "generating a $((RECORDS * 4))-record export for the memory check"
generate 4x "$((RECORDS * 4))"

# ---------------------------------------------------------------------------------------------
# 2. The peer, in its own virtualenv under .build.
PEER_STATUS=skipped
setup_peer() {
    local want have
    want=$(sha256sum "$REQUIREMENTS" | cut -d' ' -f1)
    have=$(cat "$VENV/.requirements-sha256" 2>/dev/null || true)
    if [ -x "$PEER" ] && [ "$want" = "$have" ]; then return 0; fi
    say "installing the peer into ${VENV#"$ROOT"/} (requirements-peer.txt)"
    rm -rf "$VENV"
    if ! "$PYTHON" -m venv "$VENV" >"$WORK/logs/venv.log" 2>&1; then
        # Debian's python3 needs python3-venv for ensurepip.
        rm -rf "$VENV"
        if command -v apt-get >/dev/null 2>&1; then
            say "installing the Debian package python3-venv"
            as_root apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
                as_root apt-get install -y -qq python3-venv >/dev/null
        fi
        "$PYTHON" -m venv "$VENV" >>"$WORK/logs/venv.log" 2>&1 || { cat "$WORK/logs/venv.log" >&2; return 1; }
    fi
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -r "$REQUIREMENTS" \
        >"$WORK/logs/pip.log" 2>&1 || { cat "$WORK/logs/pip.log" >&2; return 1; }
    "$VENV/bin/python" -m pip check >>"$WORK/logs/pip.log" 2>&1 || { cat "$WORK/logs/pip.log" >&2; return 1; }
    echo "$want" >"$VENV/.requirements-sha256"
}
if [ "${BENCH_SKIP_PEER:-0}" = 1 ]; then
    say "skipping the peer (BENCH_SKIP_PEER=1)"
elif setup_peer; then
    PEER_STATUS=ready
else
    PEER_STATUS=setup-failed
    say "could not install the peer; continuing without it"
fi

# ---------------------------------------------------------------------------------------------
# 3. The timed runs. Each writes logs/NAME.{out,err,time,rc}.
measure() { # name command...
    local name=$1
    shift
    /usr/bin/time -v -o "$WORK/logs/$name.time" "$@" >"$WORK/logs/$name.out" 2>"$WORK/logs/$name.err"
    echo $? >"$WORK/logs/$name.rc"
}
warm() { cat "$@" >/dev/null 2>&1 || true; } # the same page-cache state for every tool

if [ "$PEER_STATUS" = ready ]; then
    say "peer: healthkit-to-sqlite export.zip peer.db"
    warm "$WORK/1x/export.zip"
    measure peer "$PEER" --silent "$WORK/1x/export.zip" "$WORK/peer.db"
fi

if [ -x "$HEALTHETL" ]; then
    say "healthetl: import export.zip into a fresh store"
    warm "$WORK/1x/export.zip"
    measure first "$HEALTHETL" --store "$WORK/store-1x" import "$WORK/1x/export.zip" --json
    if [ "$(cat "$WORK/logs/first.rc")" -eq 0 ] || [ "$(cat "$WORK/logs/first.rc")" -eq 3 ]; then
        say "healthetl: import the same export.zip again into the same store"
        measure again "$HEALTHETL" --store "$WORK/store-1x" import "$WORK/1x/export.zip" --json
        say "healthetl: read the same export.zip again from its start (--from-start)"
        measure reread "$HEALTHETL" --store "$WORK/store-1x" import "$WORK/1x/export.zip" --from-start --json
        say "healthetl: import the 4x export.zip into a fresh store"
        warm "$WORK/4x/export.zip"
        measure x4 "$HEALTHETL" --store "$WORK/store-4x" import "$WORK/4x/export.zip" --json
        say "healthetl: import the uncompressed export.xml into a fresh store"
        warm "$WORK/1x/export.xml"
        measure xml "$HEALTHETL" --store "$WORK/store-xml" import "$WORK/1x/export.xml" --json
    fi
else
    say "missing $HEALTHETL"
fi

# ---------------------------------------------------------------------------------------------
# 4. The report.
"$PYTHON" - "$WORK" "$RECORDS" "$PEER_STATUS" "$HEALTHETL" "$VENV" <<'PY'
import json, os, re, sys

work, records, peer_status, healthetl, venv = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
logs = os.path.join(work, "logs")

def read(name, default=None):
    try:
        with open(os.path.join(logs, name), encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return default

def gen_summary(name):
    text = read(f"gen-{name}.json", "")
    for line in reversed(text.splitlines()):
        line = line.strip()
        if line.startswith("{"):
            return json.loads(line)
    return {}

def timing(name):
    """wall seconds, peak RSS in bytes, exit status — or None if the run did not happen."""
    text = read(f"{name}.time")
    rc = read(f"{name}.rc")
    if text is None or rc is None:
        return None
    wall = rss = None
    m = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", text)
    if m:
        parts = [float(p) for p in m.group(1).split(":")]
        wall = sum(p * 60 ** i for i, p in enumerate(reversed(parts)))
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", text)
    if m:
        rss = int(m.group(1)) * 1024
    return {"wall": wall, "rss": rss, "rc": int(rc.strip() or "1")}

def report_json(name):
    text = read(f"{name}.out", "") or ""
    try:
        return json.loads(text)
    except ValueError:
        for line in reversed(text.splitlines()):
            line = line.strip()
            if line.startswith("{"):
                try:
                    return json.loads(line)
                except ValueError:
                    pass
    return None

def tail(name, lines=8):
    text = (read(f"{name}.err", "") or "").strip().splitlines()
    return "\n".join("      " + l for l in text[-lines:]) or "      (no output on stderr)"

g1, g4 = gen_summary("1x"), gen_summary("4x")
xml1, xml4 = g1.get("bytes", 0), g4.get("bytes", 0)
failures = []

def gen_speed(summary):
    n, xml_s, total = summary.get("records", 0), summary.get("xml_s"), summary.get("elapsed_s")
    if not n or not xml_s:
        return "(no summary from the generator)"
    return (f"{n:,} records, {summary.get('bytes', 0) / 1e6:,.1f} MB xml in {xml_s:.2f} s "
            f"({n / xml_s / 1e6:.2f} M records/s), {summary.get('zip_bytes', 0) / 1e6:,.1f} MB zip "
            f"({total:.2f} s in all)")

print()
print("healthetl import benchmark")
print(f"  export   {gen_speed(g1)}")
print(f"  4x       {gen_speed(g4)}")
print(f"           {g1.get('days', '?')} days ({g1.get('first_day', '?')} .. {g1.get('last_day', '?')}), "
      f"{g1.get('correlations', 0)} correlations, {g1.get('workouts', 0)} workouts, "
      f"{g1.get('activity_summaries', 0)} activity summaries, {g1.get('duplicates', 0)} exact duplicates")
print(f"  machine  {os.cpu_count()} cores")
print()

rows = []  # (label, timing, records, xml bytes, json)
def add_row(label, name, n, size, is_healthetl=True):
    t = timing(name)
    if t is None:
        return None
    j = report_json(name) if is_healthetl else None
    ok = t["rc"] == 0 or (is_healthetl and t["rc"] == 3 and j is not None)
    if not ok:
        failures.append(f"{label} failed (exit {t['rc']}):\n{tail(name)}")
    elif is_healthetl and j is None:
        failures.append(f"{label} printed no JSON object on stdout:\n{tail(name)}")
        ok = False
    rows.append((label, t, n, size, ok))
    return {"t": t, "json": j, "ok": ok}

peer = add_row("healthkit-to-sqlite (peer)", "peer", records, xml1, is_healthetl=False) if peer_status == "ready" else None
first = add_row("healthetl import", "first", records, xml1)
again = add_row("healthetl re-import (resume)", "again", records, xml1)
reread = add_row("healthetl re-read --from-start", "reread", records, xml1)
x4 = add_row("healthetl import 4x", "x4", records * 4, xml4)
xml = add_row("healthetl import .xml", "xml", records, xml1)

def mb(b): return "-" if b is None else f"{b / 1e6:,.1f}"
header = f"  {'tool':<28} {'seconds':>8} {'records/s':>11} {'MB/s (xml)':>11} {'peak RSS MB':>12}  status"
print(header)
print("  " + "-" * (len(header) - 2))
for label, t, n, size, ok in rows:
    wall = t["wall"]
    rate = f"{n / wall:,.0f}" if ok and wall else "-"
    mbs = f"{size / 1e6 / wall:,.1f}" if ok and wall else "-"
    status = "ok" if ok else f"FAILED (exit {t['rc']})"
    if ok and t["rc"] == 3:
        status = "partial (exit 3)"
    print(f"  {label:<28} {wall if wall is not None else float('nan'):>8.2f} {rate:>11} {mbs:>11} {mb(t['rss']):>12}  {status}")
print()

if peer_status == "setup-failed":
    failures.append("the peer could not be installed (see the pip output above)")
if first is None:
    failures.append(f"healthetl was not run: {healthetl} is missing")

def verdict(ok): return "ok    " if ok else "MISSED"
targets = []
if first and first["ok"]:
    j = first["json"]
    keys = ["records_read", "accepted", "flagged", "quarantined", "duplicates", "tombstones",
            "workouts", "activity_summaries", "warnings", "complete"]
    shown = ", ".join(f"{k}={json.dumps(j.get(k)) if not isinstance(j.get(k), (int, float)) else j.get(k)}"
                      for k in keys if k in j)
    print(f"  first import:  {shown}")
    if "lanes" in j: print(f"                 lanes={json.dumps(j['lanes'])}")
    if j.get("complete") is False:
        print("                 note: healthetl reports the import as INCOMPLETE")
    if peer and peer["ok"]:
        ratio = peer["t"]["wall"] / first["t"]["wall"]
        targets.append((ratio >= 8, f"speed: peer {peer['t']['wall']:.2f} s / healthetl {first['t']['wall']:.2f} s = {ratio:.1f}x (target >= 8x)"))
    else:
        targets.append((False, "speed: no peer time to compare with (target >= 8x)"))
    rss1 = first["t"]["rss"]
    targets.append((rss1 is not None and rss1 <= 200e6, f"memory: healthetl peak RSS {mb(rss1)} MB (target <= 200 MB)"))
    if x4 and x4["ok"]:
        rss4 = x4["t"]["rss"]
        flat = rss1 and rss4 / rss1
        targets.append((flat is not None and flat <= 1.25, f"flat memory: 4x export peak RSS {mb(rss4)} MB = {flat:.2f}x the 1x run (target <= 1.25x)"))
    else:
        targets.append((False, "flat memory: the 4x import did not complete"))
    if again and again["ok"]:
        a = again["json"]
        print(f"  re-import:     records_read={a.get('records_read')}, resumed_at_byte={a.get('resumed_at_byte')}")
        targets.append((a.get("records_read") == 0, f"resume: the re-import read {a.get('records_read')} records (target 0: it resumes at the end)"))
    else:
        targets.append((False, "resume: the re-import did not complete"))
    if reread and reread["ok"]:
        a = reread["json"]
        added = (a.get("accepted") or 0) + (a.get("flagged") or 0)
        idempotent = added == 0 and a.get("records_read") == j.get("records_read")
        print(f"  re-read:       records_read={a.get('records_read')}, accepted={a.get('accepted')}, "
              f"flagged={a.get('flagged')}, duplicates={a.get('duplicates')}")
        targets.append((idempotent, f"idempotent: reading it all again added {added} samples (target 0)"))
        ratio = reread["t"]["wall"] / first["t"]["wall"]
        targets.append((ratio <= 1.1, f"re-read time: {reread['t']['wall']:.2f} s = {ratio:.2f}x the first import (target <= 1.1x)"))
    else:
        targets.append((False, "idempotent: the re-read did not complete"))
    print()

if targets:
    print("  targets")
    for ok, text in targets:
        print(f"    {verdict(ok)}  {text}")
    print()
for f in failures:
    print(f"  FAILURE: {f}")
if failures:
    print()
    sys.exit(1)
PY
