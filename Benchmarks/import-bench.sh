#!/usr/bin/env bash
# import-bench.sh — the end-to-end import benchmark `make bench` runs after the release build.
#
# Generates a synthetic Apple Health export in the real format (healthetl simulate --export), then times,
# in one run and on the same files:
#   peer      healthkit-to-sqlite export.zip peer.db              (pinned in requirements-peer.txt)
#   mcp       apple-health-export-mcp-ingest export.zip --db DB   (pinned in requirements-peer-mcp.txt)
#   healthetl healthetl --store S import export.zip --json        (first import into a fresh store)
#   again     the same file into the same store                   (resumes at its end: reads nothing)
#   reread    the same file again with --from-start               (reads it all, must add nothing)
#   4x        a 4x larger export into a fresh store                (memory must stay flat)
#   xml       the uncompressed export.xml into a fresh store       (for information)
# each under /usr/bin/time -v for wall time, CPU time (user+sys) and peak RSS, with the same page-cache
# state, and prints a table and the targets. The three compared imports (peer, mcp, healthetl) run
# BENCH_IMPORT_RUNS rounds, in turn within each round, each into a fresh database; each tool's median
# run by wall time stands for it (a single run swings by 5 % on a shared VM), and every run's time is
# printed. Each peer must have imported: the rows of its record
# tables (healthkit-to-sqlite: one r… table per type; apple-health-export-mcp: record), counted with
# python's sqlite3, must reach 90 % of the export's records (the peers may drop exact duplicates);
# a peer with fewer is a FAILURE, not a ratio. (healthetl's rows are its store's samples table.)
#
# Targets: wall time >= 5x faster than apple-health-export-mcp and >= 15x faster than
# healthkit-to-sqlite, >= 100 MiB/s of XML, healthetl peak RSS <= 100 MB; the 4x export's peak RSS
# <= 1.25x the 1x one, the re-import reads nothing, the re-read adds nothing in <= 1.1x the time.
# The CPU-time ratios against the peers are printed for information.
#
# Builds nothing: it expects .build/release/healthetl. The peers install themselves into their own
# virtualenvs (.build/bench-venv, .build/bench-venv-mcp), again whenever their requirements file changes.
# Exits non-zero only when a tool fails (or cannot be set up, or a peer imports too few rows);
# a missed target prints MISSED.
#
# Environment:
#   BENCH_RECORDS  top-level Records in the export (default 250000; the targets assume >= 250000)
#   BENCH_SEED     generator seed (default 1)
#   BENCH_IMPORT_RUNS  rounds of the three compared imports (default 5; the median run of each counts:
#                      a run swings by up to 7 % on a shared VM, the peers' too)
#   BENCH_KEEP=1   keep the work directory (exports, stores, logs) and print its path
#   BENCH_SKIP_PEER=1  do not install or run the peers (no ratios)
#   BENCH_JSON=PATH    also write every figure and target verdict as one JSON object to PATH
#   BENCH_JSON_DIR=DIR the same into DIR/import.json (when BENCH_JSON is unset)
#   HEALTHETL, PYTHON  override the binaries used
set -uo pipefail

case ${BENCH_JSON_DIR:-} in '' | /*) ;; *) BENCH_JSON_DIR=$(pwd)/$BENCH_JSON_DIR ;; esac # from the caller's directory
case ${BENCH_JSON:-} in '' | /*) ;; *) BENCH_JSON=$(pwd)/$BENCH_JSON ;; esac
cd "$(dirname "$0")/.." || exit 1
ROOT=$(pwd)

RECORDS=${BENCH_RECORDS:-250000}
SEED=${BENCH_SEED:-1}
RUNS=${BENCH_IMPORT_RUNS:-5}
HEALTHETL=${HEALTHETL:-$ROOT/.build/release/healthetl}
PYTHON=${PYTHON:-python3}
JSON_OUT=${BENCH_JSON:-}
[ -z "$JSON_OUT" ] && [ -n "${BENCH_JSON_DIR:-}" ] && JSON_OUT=$BENCH_JSON_DIR/import.json

# The peers: id, package, virtualenv, requirements file, the command it installs.
PEER_IDS=(peer mcp)
declare -A PEER_PACKAGE=([peer]=healthkit-to-sqlite [mcp]=apple-health-export-mcp)
declare -A PEER_VENV=([peer]=$ROOT/.build/bench-venv [mcp]=$ROOT/.build/bench-venv-mcp)
declare -A PEER_REQUIREMENTS=([peer]=$ROOT/Benchmarks/requirements-peer.txt [mcp]=$ROOT/Benchmarks/requirements-peer-mcp.txt)
declare -A PEER_COMMAND=([peer]=healthkit-to-sqlite [mcp]=apple-health-export-mcp-ingest)

say() { printf '==> %s\n' "$*" >&2; }
fail() { printf 'import-bench: %s\n' "$*" >&2; exit 1; }

case $RECORDS in '' | *[!0-9]*) fail "BENCH_RECORDS must be a positive integer, not '$RECORDS'" ;; esac
case $SEED in '' | *[!0-9]*) fail "BENCH_SEED must be a non-negative integer, not '$SEED'" ;; esac
case $RUNS in '' | *[!0-9]* | 0) fail "BENCH_IMPORT_RUNS must be a positive integer, not '$RUNS'" ;; esac
[ "$RECORDS" -ge 10 ] || fail "BENCH_RECORDS must be at least 10"
if [ "$RECORDS" -lt 250000 ]; then
    say "note: BENCH_RECORDS=$RECORDS is below 250000; the targets are meant for >= 250000 records"
fi

[ -x "$HEALTHETL" ] || fail "missing $HEALTHETL — build the release first (make bench does)"
command -v "$PYTHON" >/dev/null 2>&1 || fail "python3 is required (venvs for the peers, row counts, report)"
if [ -n "$JSON_OUT" ]; then
    mkdir -p "$(dirname "$JSON_OUT")" || fail "cannot create the directory of $JSON_OUT"
fi

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
# 2. The peers, each in its own virtualenv under .build.
setup_peer() { # id
    local id=$1 want have venv=${PEER_VENV[$1]} requirements=${PEER_REQUIREMENTS[$1]}
    local name=${requirements##*/}
    want=$(sha256sum "$requirements" | cut -d' ' -f1)
    have=$(cat "$venv/.requirements-sha256" 2>/dev/null || true)
    if [ -x "$venv/bin/${PEER_COMMAND[$id]}" ] && [ "$want" = "$have" ]; then return 0; fi
    say "installing ${PEER_PACKAGE[$id]} into ${venv#"$ROOT"/} ($name)"
    rm -rf "$venv"
    if ! "$PYTHON" -m venv "$venv" >"$WORK/logs/venv-$id.log" 2>&1; then
        # Debian's python3 needs python3-venv for ensurepip.
        rm -rf "$venv"
        if command -v apt-get >/dev/null 2>&1; then
            say "installing the Debian package python3-venv"
            as_root apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
                as_root apt-get install -y -qq python3-venv >/dev/null
        fi
        "$PYTHON" -m venv "$venv" >>"$WORK/logs/venv-$id.log" 2>&1 || { cat "$WORK/logs/venv-$id.log" >&2; return 1; }
    fi
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements" \
        >"$WORK/logs/pip-$id.log" 2>&1 || { cat "$WORK/logs/pip-$id.log" >&2; return 1; }
    "$venv/bin/python" -m pip check >>"$WORK/logs/pip-$id.log" 2>&1 || { cat "$WORK/logs/pip-$id.log" >&2; return 1; }
    echo "$want" >"$venv/.requirements-sha256"
}
# The installed version of a peer's package.
peer_version() { # id
    "${PEER_VENV[$1]}/bin/python" -c 'import importlib.metadata as m, sys; print(m.version(sys.argv[1]))' \
        "${PEER_PACKAGE[$1]}" 2>/dev/null || echo "?"
}
declare -A PEER_STATUS=()
for id in "${PEER_IDS[@]}"; do
    PEER_STATUS[$id]=skipped
    if [ "${BENCH_SKIP_PEER:-0}" = 1 ]; then
        say "skipping ${PEER_PACKAGE[$id]} (BENCH_SKIP_PEER=1)"
    elif setup_peer "$id"; then
        PEER_STATUS[$id]=ready
    else
        PEER_STATUS[$id]=setup-failed
        say "could not install ${PEER_PACKAGE[$id]}; continuing without it"
    fi
done

# ---------------------------------------------------------------------------------------------
# 3. The timed runs. Each writes logs/NAME.{out,err,time,rc}.
measure() { # name command...
    local name=$1
    shift
    /usr/bin/time -v -o "$WORK/logs/$name.time" "$@" >"$WORK/logs/$name.out" 2>"$WORK/logs/$name.err"
    echo $? >"$WORK/logs/$name.rc"
}
# The same state for every tool: its input in the page cache, and nothing an earlier run wrote
# still waiting to be written back (that run's writeback would otherwise land in this one's time).
warm() {
    cat "$@" >/dev/null 2>&1 || true
    sync
}

# The median run of NAME-1 .. NAME-RUNS by wall time (the lower middle one for an even count):
# its logs become logs/NAME.*, its database or store WORK/NAME.db or WORK/store-1x, and the others go.
keep_median() { # name database-suffix
    local name=$1 suffix=$2 median run
    median=$(PYTHONPATH="$ROOT/Benchmarks" PYTHONDONTWRITEBYTECODE=1 "$PYTHON" - "$WORK/logs" "$name" "$RUNS" <<'PY'
import sys
import benchjson
logs, name, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
def wall(run):
    timing = benchjson.timing(logs, f"{name}-{run}")
    # A run without a time sorts last.
    return float("inf") if timing is None or timing["wall"] is None else timing["wall"]
ordered = sorted(range(1, runs + 1), key=wall)
print(ordered[(runs - 1) // 2])
with open(f"{logs}/{name}.runs", "w") as out:  # every run's wall time, in run order
    out.write(" ".join(f"{wall(run):.2f}" for run in range(1, runs + 1)) + "\n")
PY
    ) || fail "cannot pick the median run of $name"
    for ext in time rc out err; do cp "$WORK/logs/$name-$median.$ext" "$WORK/logs/$name.$ext"; done
    mv "$WORK/$name-$median$suffix" "$WORK/$name$suffix"
    for run in $(seq 1 "$RUNS"); do [ "$run" = "$median" ] || rm -rf "$WORK/$name-$run$suffix"; done
}

# Rounds of the three compared imports, in turn, so that a slow minute on the machine hits each alike.
for run in $(seq 1 "$RUNS"); do
    if [ "${PEER_STATUS[peer]}" = ready ]; then
        say "peer (run $run of $RUNS): healthkit-to-sqlite export.zip peer.db"
        warm "$WORK/1x/export.zip"
        measure "peer-$run" "${PEER_VENV[peer]}/bin/healthkit-to-sqlite" --silent "$WORK/1x/export.zip" \
            "$WORK/peer-$run.db"
    fi
    if [ "${PEER_STATUS[mcp]}" = ready ]; then
        say "peer (run $run of $RUNS): apple-health-export-mcp-ingest export.zip --db mcp.db"
        warm "$WORK/1x/export.zip"
        measure "mcp-$run" "${PEER_VENV[mcp]}/bin/apple-health-export-mcp-ingest" "$WORK/1x/export.zip" \
            --db "$WORK/mcp-$run.db"
    fi
    if [ -x "$HEALTHETL" ]; then
        say "healthetl (run $run of $RUNS): import export.zip into a fresh store"
        warm "$WORK/1x/export.zip"
        measure "first-$run" "$HEALTHETL" --store "$WORK/first-$run" import "$WORK/1x/export.zip" --json
    fi
done
for id in "${PEER_IDS[@]}"; do
    [ "${PEER_STATUS[$id]}" = ready ] && keep_median "$id" .db
done
[ -x "$HEALTHETL" ] && keep_median first "" && mv "$WORK/first" "$WORK/store-1x"
# What the report needs to know of each peer: id, package, status, version, database.
for id in "${PEER_IDS[@]}"; do
    version=-
    [ "${PEER_STATUS[$id]}" = ready ] && version=$(peer_version "$id")
    printf '%s\t%s\t%s\t%s\t%s\n' "$id" "${PEER_PACKAGE[$id]}" "${PEER_STATUS[$id]}" "$version" "$WORK/$id.db"
done >"$WORK/logs/peers.tsv"

if [ -x "$HEALTHETL" ]; then
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
HEALTHETL_VERSION=$("$HEALTHETL" --version 2>/dev/null | head -n 1)

# ---------------------------------------------------------------------------------------------
# 4. The report (the JSON document and the targets block: Benchmarks/benchjson.py).
PYTHONPATH="$ROOT/Benchmarks" PYTHONDONTWRITEBYTECODE=1 \
    "$PYTHON" - "$WORK" "$RECORDS" "$SEED" "$HEALTHETL" "${HEALTHETL_VERSION:-?}" "$JSON_OUT" <<'PY'
import json, os, re, sqlite3, sys
import benchjson

work, records, seed, healthetl, healthetl_version, json_out = sys.argv[1:7]
records, seed = int(records), int(seed)
logs = os.path.join(work, "logs")
MIB = 1048576
MIN_ROWS = 0.9  # a peer must have stored at least this share of the export's records

def read(name, default=None): return benchjson.read_text(os.path.join(logs, name), default)

def gen_summary(name):
    text = read(f"gen-{name}.json", "")
    for line in reversed(text.splitlines()):
        line = line.strip()
        if line.startswith("{"):
            return json.loads(line)
    return {}

def timing(name): return benchjson.timing(logs, name)
def run_walls(name):
    """Every run's wall time for the compared imports (the median one stands for the tool), or None."""
    text = read(f"{name}.runs")
    return [float(w) for w in text.split() if w != "inf"] if text else None
def report_json(name): return benchjson.last_json(read(f"{name}.out"))

def tail(name, lines=8):
    text = ((read(f"{name}.err", "") or "") + (read(f"{name}.out", "") or "")).strip().splitlines()
    return "\n".join("      " + l for l in text[-lines:]) or "      (no output)"

def count_rows(path, tables):
    """Rows in the tables `tables(names)` picks, or (None, error)."""
    try:
        connection = sqlite3.connect(path)
        try:
            names = [n for (n,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            picked = sorted(tables(names))
            total = sum(connection.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in picked)
            return total, picked
        finally:
            connection.close()
    except sqlite3.Error as error:
        return None, str(error)

# healthkit-to-sqlite writes one table per record type (rHeartRate, rStepCount, …) beside
# workouts, workout_points and activity_summary; apple-health-export-mcp one table, record.
PEER_TABLES = {
    "peer": lambda names: [n for n in names if re.fullmatch(r"r[A-Z]\w*", n)],
    "mcp": lambda names: [n for n in names if n == "record"],
}

g1, g4 = gen_summary("1x"), gen_summary("4x")
xml1, xml4 = g1.get("bytes", 0), g4.get("bytes", 0)
export_records = g1.get("records", records)
failures = []

def gen_speed(summary):
    n, xml_s, total = summary.get("records", 0), summary.get("xml_s"), summary.get("elapsed_s")
    if not n or not xml_s:
        return "(no summary from the generator)"
    return (f"{n:,} records, {summary.get('bytes', 0) / MIB:,.1f} MiB xml in {xml_s:.2f} s "
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

peers = {}
for line in (read("peers.tsv", "") or "").splitlines():
    pid, package, status, version, db = line.split("\t")
    peers[pid] = {"id": pid, "name": package, "status": status, "version": version, "db": db}

rows = []  # dicts, in table order
def add_row(label, name, n, size, kind="healthetl", db=None):
    t = timing(name)
    if t is None:
        return None
    j = report_json(name) if kind == "healthetl" else None
    ok = t["rc"] == 0 or (kind == "healthetl" and t["rc"] == 3 and j is not None)
    status = "ok" if ok else f"FAILED (exit {t['rc']})"
    if not ok:
        failures.append(f"{label} failed (exit {t['rc']}):\n{tail(name)}")
    elif kind == "healthetl" and j is None:
        failures.append(f"{label} printed no JSON object on stdout:\n{tail(name)}")
        ok, status = False, "FAILED (no JSON)"
    elif kind == "healthetl" and t["rc"] == 3:
        status = "partial (exit 3)"
    counted = None
    if ok and kind in PEER_TABLES:
        counted, tables = count_rows(db, PEER_TABLES[kind])
        if counted is None:
            failures.append(f"{label}: cannot count its rows in {os.path.basename(db)}: {tables}")
            ok, status = False, "FAILED (no database)"
        elif counted < MIN_ROWS * export_records:
            failures.append(f"{label} stored {counted:,} rows for the export's {export_records:,} records "
                            f"(less than {MIN_ROWS:.0%}): it did not import the export")
            ok, status = False, "FAILED (too few rows)"
    elif ok and db is not None:
        counted, _ = count_rows(db, lambda names: [n for n in names if n == "samples"])
        if counted is None and j is not None:
            counted = (j.get("accepted") or 0) + (j.get("flagged") or 0)
    row = {"label": label, "name": name, "kind": kind, "t": t, "records": n, "xml_bytes": size, "ok": ok,
           "status": status, "rows": counted, "json": j}
    rows.append(row)
    return row

store_db = lambda store: os.path.join(work, store, "healthetl.sqlite")
peer_rows = {}
for pid in ("peer", "mcp"):
    p = peers.get(pid)
    if p and p["status"] == "ready":
        peer_rows[pid] = add_row(f"{p['name']} (peer)", pid, records, xml1, kind=pid, db=p["db"])
first = add_row("healthetl import", "first", records, xml1, db=store_db("store-1x"))
again = add_row("healthetl re-import (resume)", "again", records, xml1)
reread = add_row("healthetl re-read --from-start", "reread", records, xml1)
x4 = add_row("healthetl import 4x", "x4", records * 4, xml4, db=store_db("store-4x"))
xml = add_row("healthetl import .xml", "xml", records, xml1, db=store_db("store-xml"))

def mb(b): return "-" if b is None else f"{b / 1e6:,.1f}"
def rate(row): return row["records"] / row["t"]["wall"] if row["ok"] and row["t"]["wall"] else None
def mibs(row): return row["xml_bytes"] / MIB / row["t"]["wall"] if row["ok"] and row["t"]["wall"] else None
def cpu_per_million(row):
    return row["t"]["cpu"] / row["records"] * 1e6 if row["ok"] and row["t"]["cpu"] is not None and row["records"] else None
def num(value, fmt):
    width = re.match(r"\d*", fmt).group(0)
    return format("-", f">{width}") if value is None else format(value, fmt)

header = (f"  {'tool':<34} {'wall s':>8} {'CPU s':>8} {'CPU s/M':>8} {'records/s':>11} {'MiB/s (xml)':>11} "
          f"{'peak RSS MB':>12} {'rows':>10}  status")
print(header)
print("  " + "-" * (len(header) - 2))
for row in rows:
    t = row["t"]
    print(f"  {row['label']:<34} {num(t['wall'], '8.2f')} {num(t['cpu'], '8.2f')} {num(cpu_per_million(row), '8.2f')} "
          f"{num(rate(row), '11,.0f')} "
          f"{num(mibs(row), '11,.1f')} {mb(t['rss']):>12} {num(row['rows'], '10,')}  {row['status']}")
print("  CPU s/M: CPU seconds (user + system) per million records")
walls = [(row["label"], run_walls(row["name"])) for row in rows if run_walls(row["name"])]
if walls:
    print(f"  each of the compared imports ran {len(walls[0][1])} times, in turn; its median run is shown:")
    for label, w in walls:
        print(f"    {label:<32} " + " / ".join(f"{x:.2f}" for x in w) + " s")
print()
for pid, row in peer_rows.items():
    if row and row["rows"] is not None:
        print(f"  {peers[pid]['name']} {peers[pid]['version']}: {row['rows']:,} rows for the export's "
              f"{export_records:,} records ({g1.get('duplicates', 0):,} of them exact duplicates; "
              f"at least {MIN_ROWS:.0%} required)")
if peer_rows:
    print()

for pid, p in peers.items():
    if p["status"] == "setup-failed":
        failures.append(f"{p['name']} could not be installed (see the pip output above)")
if first is None:
    failures.append(f"healthetl was not run: {healthetl} is missing")

targets = []
def target(met, text, name, value=None, limit=None):
    targets.append(benchjson.target(name, met, value, limit, text))

ratios = {}
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
    ft = first["t"]
    for pid, need in (("mcp", 5), ("peer", 15)):
        name = peers.get(pid, {}).get("name", {"mcp": "apple-health-export-mcp", "peer": "healthkit-to-sqlite"}[pid])
        row = peer_rows.get(pid)
        if row and row["ok"] and ft["wall"]:
            ratio = row["t"]["wall"] / ft["wall"]
            cpu_ratio = row["t"]["cpu"] / ft["cpu"] if row["t"]["cpu"] is not None and ft["cpu"] else None
            ratios[name] = {"wall": ratio, "cpu": cpu_ratio}
            target(ratio >= need, f"speed: {name} {row['t']['wall']:.2f} s / healthetl {ft['wall']:.2f} s = "
                   f"{ratio:.1f}x (target >= {need}x; medians of {len(run_walls('first') or [1])} runs)", f"speed vs {name}", round(ratio, 2), f">= {need}x")
        else:
            why = "skipped" if not row and peers.get(pid, {}).get("status") == "skipped" else "no valid peer run"
            target(False, f"speed: no {name} time to compare with ({why}; target >= {need}x)",
                   f"speed vs {name}", None, f">= {need}x")
    throughput = mibs(first)
    target(throughput is not None and throughput >= 100,
           f"throughput: {num(throughput, ',.1f')} MiB/s of XML ({xml1 / MIB:,.1f} MiB in {ft['wall']:.2f} s; target >= 100 MiB/s)",
           "XML throughput", None if throughput is None else round(throughput, 1), ">= 100 MiB/s")
    rss1 = ft["rss"]
    target(rss1 is not None and rss1 <= 100e6, f"memory: healthetl peak RSS {mb(rss1)} MB (target <= 100 MB)",
           "peak RSS", None if rss1 is None else round(rss1 / 1e6, 1), "<= 100 MB")
    if x4 and x4["ok"]:
        rss4 = x4["t"]["rss"]
        flat = rss1 and rss4 / rss1
        target(flat is not None and flat <= 1.25,
               f"flat memory: 4x export peak RSS {mb(rss4)} MB = {flat:.2f}x the 1x run (target <= 1.25x)",
               "flat memory (4x export)", None if flat is None else round(flat, 3), "<= 1.25x")
    else:
        target(False, "flat memory: the 4x import did not complete", "flat memory (4x export)", None, "<= 1.25x")
    if again and again["ok"]:
        a = again["json"]
        print(f"  re-import:     records_read={a.get('records_read')}, resumed_at_byte={a.get('resumed_at_byte')}")
        target(a.get("records_read") == 0,
               f"resume: the re-import read {a.get('records_read')} records (target 0: it resumes at the end)",
               "resume", a.get("records_read"), "0 records read")
    else:
        target(False, "resume: the re-import did not complete", "resume", None, "0 records read")
    if reread and reread["ok"]:
        a = reread["json"]
        added = (a.get("accepted") or 0) + (a.get("flagged") or 0)
        idempotent = added == 0 and a.get("records_read") == j.get("records_read")
        print(f"  re-read:       records_read={a.get('records_read')}, accepted={a.get('accepted')}, "
              f"flagged={a.get('flagged')}, duplicates={a.get('duplicates')}")
        target(idempotent, f"idempotent: reading it all again added {added} samples (target 0)",
               "idempotent", added, "0 samples added")
        ratio = reread["t"]["wall"] / ft["wall"]
        target(ratio <= 1.1, f"re-read time: {reread['t']['wall']:.2f} s = {ratio:.2f}x the first import (target <= 1.1x)",
               "re-read time", round(ratio, 3), "<= 1.1x")
    else:
        target(False, "idempotent: the re-read did not complete", "idempotent", None, "0 samples added")
    print()
    for pid, row in peer_rows.items():
        r = ratios.get(peers[pid]["name"])
        if r and r["cpu"] is not None:
            print(f"  CPU time:      {peers[pid]['name']} {row['t']['cpu']:.2f} CPU-s / healthetl {ft['cpu']:.2f} CPU-s = "
                  f"{r['cpu']:.1f}x (for information)")
    if ratios:
        print()

benchjson.print_targets(targets, failures)

if json_out:
    def figure(row):
        t = row["t"]
        peer = peers.get(row["kind"])
        return {
            "name": peer["name"] if peer else row["label"],
            "run": row["name"],
            "role": "peer" if peer else "healthetl",
            "version": peer["version"] if peer else healthetl_version,
            "status": row["status"],
            "exit": t["rc"],
            "records": row["records"],
            "xml_bytes": row["xml_bytes"],
            "wall_s": t["wall"],
            "cpu_s": None if t["cpu"] is None else round(t["cpu"], 3),
            "cpu_s_per_million_records": None if cpu_per_million(row) is None else round(cpu_per_million(row), 2),
            "user_s": t["user"],
            "sys_s": t["sys"],
            "peak_rss_mb": None if t["rss"] is None else round(t["rss"] / 1e6, 1),
            "records_per_s": None if rate(row) is None else round(rate(row)),
            "xml_mib_per_s": None if mibs(row) is None else round(mibs(row), 2),
            "rows": row["rows"],
            "runs_wall_s": run_walls(row["name"]),
        }
    benchjson.write_document(
        json_out, "import", "Apple Health import (export.zip) against the peers",
        [figure(row) for row in rows], targets, failures,
        records=records, seed=seed,
        export={k: v for k, v in g1.items() if k not in ("record_types", "zip")},
        export_4x={k: g4.get(k) for k in ("records", "bytes", "zip_bytes")},
        peers=[{"name": p["name"], "version": p["version"], "setup": p["status"],
                "status": (peer_rows.get(pid) or {}).get("status", "not run"),
                "rows": (peer_rows.get(pid) or {}).get("rows"),
                "rows_required": int(MIN_ROWS * export_records + 0.999999),
                "wall_ratio": None if p["name"] not in ratios else round(ratios[p["name"]]["wall"], 2),
                "cpu_ratio": None if p["name"] not in ratios or ratios[p["name"]]["cpu"] is None
                else round(ratios[p["name"]]["cpu"], 2)}
               for pid, p in peers.items()],
        healthetl={"version": healthetl_version,
                   "first_import": {k: v for k, v in ((first or {}).get("json") or {}).items()
                                    if k not in ("input", "stream")}},
    )
    print(f"  figures written to {json_out}")
    print()
sys.exit(1 if failures else 0)
PY
