#!/usr/bin/env bash
# bench-report.sh — every benchmark, with its figures as JSON, into one report: bench-report.md and
# bench-report.json at the repository root. `make bench-report` does the release build first, as
# `make bench` does; this script builds nothing.
#
# Runs one after the other, each with BENCH_JSON_DIR set and its printed output captured (and shown):
#   components          Benchmarks/run.sh (healthetl-bench's component figures, the simulate load)
#   import              Benchmarks/import-bench.sh (healthetl against healthkit-to-sqlite and apple-health-export-mcp)
#   scale               Benchmarks/scale-bench.sh (linear to 4 GB)
#   ingest              Benchmarks/ingest-bench.sh (the collector through HTTP)
#   feed                Benchmarks/feed-bench.sh (the change feed: followers, catch-up, 304s)
#   upload              Benchmarks/upload-bench.sh (end to end)
#   health-connect      Benchmarks/health-connect-bench.sh
#   health-auto-export  Benchmarks/health-auto-export-bench.sh
#   fit                 Benchmarks/fit-bench.sh (a folder of ~5,000 FIT files; fitdecode on the same files)
#   postgres            Benchmarks/postgres-bench.sh
#   export              Benchmarks/export-bench.sh
#   mcp                 Benchmarks/mcp-bench.sh (the MCP tools' latency over a store of ~4 M samples)
# then writes the report: the date, the machine (CPU model, cores, memory, kernel, distribution), the
# versions (healthetl's commit and --version, swift --version, the SQLite, libxml2, zstd and zlib
# healthetl links — ldd, sqlite3 --version when present, dpkg-query —, Python, both peers, fitdecode),
# every figure and target verdict as a table per bench, the peers side by side with healthetl (fitdecode
# beside the FIT import), and how to rerun it.
# A bench that fails (non-zero exit, or no JSON written) is recorded as FAILED with its last output
# lines; the report is still written, and the script then exits non-zero. A bench that missed a target
# is MISSED in the summary (never "ok"), and the script exits non-zero for it too.
#
# Environment:
#   BENCH_REPORT=PREFIX  write PREFIX.md and PREFIX.json (default: bench-report at the repository root)
#   BENCH_ONLY="import scale"  run only these benches (the names above; default: all of them)
#   BENCH_RENDER=1       run no bench: render PREFIX.md again from PREFIX.json, the verdicts recomputed
#   BENCH_KEEP=1         keep the work directory (each bench's JSON and output) and print its path
#   every bench's own knobs pass through: BENCH_RECORDS (run.sh and import-bench.sh), BENCH_SEED,
#   BENCH_SIMULATE_DAYS, BENCH_SCALE_RECORDS, BENCH_INGEST_SAMPLES, BENCH_UPLOAD_DAYS,
#   BENCH_UPLOAD_PEOPLE, BENCH_HC_DAYS, BENCH_HAE_DAYS, BENCH_HAE_PUSHES, BENCH_FIT_DAYS, BENCH_FIT_SEEDS,
#   BENCH_PG_SAMPLES, BENCH_EXPORT_DAYS, BENCH_MCP_DAYS, BENCH_SKIP_PEER, and the binaries HEALTHETL, HEALTHETL_BENCH,
#   INGEST_BENCH, PYTHON
set -uo pipefail

CALLER_PWD=$(pwd)
cd "$(dirname "$0")/.." || exit 1
ROOT=$(pwd)
PYTHON=${PYTHON:-python3}
HEALTHETL=${HEALTHETL:-$ROOT/.build/release/healthetl}
PREFIX=${BENCH_REPORT:-$ROOT/bench-report}
case $PREFIX in /*) ;; *) PREFIX=$CALLER_PWD/$PREFIX ;; esac

say() { printf '==> %s\n' "$*" >&2; }
fail() { printf 'bench-report: %s\n' "$*" >&2; exit 1; }

BENCHES=(components import scale ingest feed upload health-connect health-auto-export fit postgres export mcp)
declare -A SCRIPT=([components]=run.sh [import]=import-bench.sh [scale]=scale-bench.sh [ingest]=ingest-bench.sh [feed]=feed-bench.sh
    [upload]=upload-bench.sh [health-connect]=health-connect-bench.sh
    [health-auto-export]=health-auto-export-bench.sh [fit]=fit-bench.sh [postgres]=postgres-bench.sh
    [export]=export-bench.sh [mcp]=mcp-bench.sh)
SELECTED=("${BENCHES[@]}")
if [ -n "${BENCH_ONLY:-}" ]; then
    read -r -a SELECTED <<<"$BENCH_ONLY"
    for name in "${SELECTED[@]}"; do
        [ -n "${SCRIPT[$name]:-}" ] || fail "BENCH_ONLY names '$name'; the benches are: ${BENCHES[*]}"
    done
fi
command -v "$PYTHON" >/dev/null 2>&1 || fail "python3 is required (the report)"
mkdir -p "$(dirname "$PREFIX")" || fail "cannot create the directory of $PREFIX"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/healthetl-bench-report.XXXXXX") || fail "cannot create a work directory"
cleanup() { if [ "${BENCH_KEEP:-0}" = 1 ]; then say "kept $WORK"; else rm -rf "$WORK"; fi; }
trap cleanup EXIT
trap 'exit 130' INT TERM
mkdir -p "$WORK/json" "$WORK/out"

# Each bench writes its own JSON into $WORK/json; BENCH_JSON would send two of them to one file.
unset BENCH_JSON
export BENCH_JSON_DIR=$WORK/json
# BENCH_RENDER=1: no bench runs; the report is rendered again from PREFIX.json.
if [ "${BENCH_RENDER:-0}" != 1 ]; then
    date -u +%Y-%m-%dT%H:%M:%SZ >"$WORK/started"
    for name in "${SELECTED[@]}"; do
        script=Benchmarks/${SCRIPT[$name]}
        say "bench $name: $script"
        start=$(date +%s%N)
        "$ROOT/$script" 2>&1 | tee "$WORK/out/$name.log"
        rc=${PIPESTATUS[0]}
        end=$(date +%s%N)
        echo "$rc $(((end - start) / 1000000))" >"$WORK/out/$name.status"
        [ "$rc" -eq 0 ] || say "bench $name failed (exit $rc)"
    done
    date -u +%Y-%m-%dT%H:%M:%SZ >"$WORK/finished"
fi

PYTHONPATH="$ROOT/Benchmarks" PYTHONDONTWRITEBYTECODE=1 \
    "$PYTHON" - "$WORK" "$ROOT" "$PREFIX" "$HEALTHETL" "${SELECTED[@]}" <<'PY'
import datetime, json, os, platform, re, shutil, subprocess, sys
import benchjson

work, root, prefix, healthetl, names = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
SCRIPTS = {"components": "run.sh", "import": "import-bench.sh", "scale": "scale-bench.sh",
           "ingest": "ingest-bench.sh", "feed": "feed-bench.sh", "upload": "upload-bench.sh", "health-connect": "health-connect-bench.sh",
           "health-auto-export": "health-auto-export-bench.sh", "fit": "fit-bench.sh", "postgres": "postgres-bench.sh",
           "export": "export-bench.sh", "mcp": "mcp-bench.sh"}

def run(*command, cwd=root):
    """A command's standard output, stripped, or None when it cannot run."""
    try:
        done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 and done.stdout.strip() else None

def read(path, default=""): return benchjson.read_text(path, default)

def clean(text):
    """A captured output as a terminal would have left it: no colours, only what follows a line's last \\r."""
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)
    return "\n".join(line.rsplit("\r", 1)[-1] for line in text.split("\n")).rstrip()

def gather():
    """Runs nothing: reads what the benches left in the work directory, and the machine and versions."""
    # ---- the machine
    cpuinfo = read("/proc/cpuinfo")
    model = re.search(r"^model name\s*:\s*(.+)$", cpuinfo, re.M) or re.search(r"^(?:Model|Hardware)\s*:\s*(.+)$", cpuinfo, re.M)
    meminfo = re.search(r"^MemTotal:\s*(\d+) kB", read("/proc/meminfo"), re.M)
    os_release = dict(re.findall(r'^(\w+)="?(.*?)"?$', read("/etc/os-release"), re.M))
    machine = {
        "cpu": model.group(1).strip() if model else platform.processor() or "?",
        "cores": os.cpu_count(),
        "memory_gib": round(int(meminfo.group(1)) / 1048576, 1) if meminfo else None,
        "kernel": platform.release(),
        "architecture": platform.machine(),
        "distribution": os_release.get("PRETTY_NAME", "?"),
    }

    # ---- the versions
    commit = run("git", "rev-parse", "HEAD")
    dirty = run("git", "status", "--porcelain", "--untracked-files=no")
    libraries = {}
    ldd = run("ldd", healthetl) or ""
    for line in ldd.splitlines():
        m = re.match(r"\s*(lib(?:sqlite3|xml2|zstd|z|isal|jemalloc)\.so[.\d]*)\s+=>\s+(\S+)", line)
        if m:
            libraries[m.group(1)] = os.path.realpath(m.group(2))
    packages = {}
    for package in ("libsqlite3-0", "libxml2", "libzstd1", "zlib1g", "libisal2", "libjemalloc2"):
        version = run("dpkg-query", "-W", "-f=${Version}", package)
        packages[package] = version or "not installed (or no dpkg)"
    def peer_version(venv, package, requirements):
        version = run(os.path.join(root, ".build", venv, "bin", "python"), "-c",
                      f"import importlib.metadata as m; print(m.version({package!r}))")
        if version:
            return version
        pinned = re.search(rf"^{re.escape(package)}==(\S+)", read(os.path.join(root, "Benchmarks", requirements)), re.M)
        return f"{pinned.group(1)} (pinned; not installed)" if pinned else "?"
    def fitdecode_version():
        # fit-bench.sh's peer: the test tools' virtualenv, pinned in Tests/tools/test-venv.sh.
        version = run(os.path.join(root, ".build", "test-venv", "bin", "python"), "-c",
                      "import importlib.metadata as m; print(m.version('fitdecode'))")
        if version:
            return version
        pinned = re.search(r"^FITDECODE_VERSION=(\S+)", read(os.path.join(root, "Tests", "tools", "test-venv.sh")), re.M)
        return f"{pinned.group(1)} (pinned; not installed)" if pinned else "?"
    swift = run("swift", "--version")
    versions = {
        "healthetl_commit": (commit or "?") + (" (work tree modified)" if dirty else ""),
        "healthetl": run(healthetl, "--version") or "?",
        "healthetl_binary": healthetl + (
            f" (built {datetime.datetime.fromtimestamp(os.path.getmtime(healthetl), datetime.timezone.utc):%Y-%m-%d %H:%M UTC})"
            if os.path.exists(healthetl) else " (missing)"),
        "swift": swift.splitlines()[0] if swift else "?",
        "sqlite3_cli": run("sqlite3", "--version") or "not installed",
        "packages": packages,
        "linked_libraries": libraries,
        "python": platform.python_version(),
        "healthkit-to-sqlite": peer_version("bench-venv", "healthkit-to-sqlite", "requirements-peer.txt"),
        "apple-health-export-mcp": peer_version("bench-venv-mcp", "apple-health-export-mcp", "requirements-peer-mcp.txt"),
        "fitdecode": fitdecode_version(),
    }
    if swift:
        versions["swift_full"] = swift

    # ---- the benches
    settings = {k: v for k, v in sorted(os.environ.items())
                if (k.startswith("BENCH_") and k not in ("BENCH_JSON_DIR", "BENCH_REPORT"))
                or k in ("HEALTHETL", "HEALTHETL_BENCH", "INGEST_BENCH", "PYTHON")}
    benches = []
    for name in names:
        status = read(os.path.join(work, "out", f"{name}.status"), "1 0").split()
        rc, millis = int(status[0]), int(status[1])
        output = clean(read(os.path.join(work, "out", f"{name}.log")))
        document = None
        path = os.path.join(work, "json", f"{name}.json")
        if os.path.exists(path):
            try:
                document = json.loads(read(path))
            except ValueError:
                document = None
        problem = None
        if rc != 0:
            problem = f"exit {rc}"
        elif document is None:
            problem = "it wrote no JSON"
        elif not document.get("ok", True):
            problem = "it reported failures"
        targets = (document or {}).get("targets", [])
        entry = {
            "name": name,
            "script": f"Benchmarks/{SCRIPTS[name]}",
            "problem": problem,
            "exit": rc,
            "seconds": round(millis / 1000, 1),
            "targets_met": sum(1 for t in targets if t.get("met")),
            "targets_missed": sum(1 for t in targets if not t.get("met")),
            "result": document,
            "output": output,
        }
        benches.append(entry)

    report = {
        "title": "healthetl benchmark report",
        "date": read(os.path.join(work, "started")).strip(),
        "finished": read(os.path.join(work, "finished")).strip(),
        "machine": machine,
        "versions": versions,
        "settings": settings,
        "rerun": "make bench-report",
        "benches": benches,
    }
    return report

def status_of(bench):
    """failed (it exited non-zero, wrote no JSON or reported failures), missed (a target missed: never
    "ok") or ok."""
    if bench.get("problem"):
        return "failed"
    return "missed" if bench.get("targets_missed") else "ok"


# BENCH_RENDER=1 renders the report again from PREFIX.json, running and reading nothing else.
if os.environ.get("BENCH_RENDER") == "1":
    with open(prefix + ".json", encoding="utf-8") as f:
        report = json.load(f)
else:
    report = gather()
for b in report["benches"]:
    b["status"] = status_of(b)
report["failed"] = [b["name"] for b in report["benches"] if b["status"] == "failed"]
report["missed"] = [b["name"] for b in report["benches"] if b["status"] == "missed"]
report["ok"] = not report["failed"] and not report["missed"]
benches, failed, missed, settings = report["benches"], report["failed"], report["missed"], report["settings"]
machine, versions = report["machine"], report["versions"]
with open(prefix + ".json", "w", encoding="utf-8") as f:
    json.dump(report, f, indent=2, ensure_ascii=False)
    f.write("\n")


# ---- the Markdown
def cell(value):
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        magnitude = abs(value)
        if magnitude >= 1000:
            return f"{value:,.0f}"
        if magnitude >= 100:
            return f"{value:.1f}"
        return f"{value:.2f}" if magnitude >= 0.01 or value == 0 else f"{value:.3g}"
    if isinstance(value, (dict, list)):
        return "`" + json.dumps(value, separators=(",", ":")).replace("|", "\\|") + "`"
    return str(value).replace("|", "\\|").replace("\n", " ")

def table(headers, rows):
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return lines

def figures_table(figures):
    columns = []
    for figure in figures:
        for key, value in figure.items():
            if key not in columns and not isinstance(value, (dict, list)):
                columns.append(key)
    return table(columns, [[f.get(c) for c in columns] for f in figures])

md = ["# healthetl benchmark report", ""]
md.append(f"Run {report['date']} to {report['finished']} (UTC). Rerun it with `make bench-report` "
          "(the release build, then `Benchmarks/bench-report.sh`; `BENCH_REPORT=prefix` writes elsewhere).")
md.append("")
if settings:
    md.append("Settings of this run (environment; the targets assume the defaults): "
              + ", ".join(f"`{k}={v}`" for k, v in settings.items()) + ".")
else:
    md.append("Settings of this run: every bench's defaults.")
md.append("")
if failed:
    md.append(f"**FAILED: {', '.join(failed)}** (see each section for the last lines of its output).")
if missed:
    md.append(f"**Targets MISSED by: {', '.join(missed)}** (each section's targets table says which).")
    md.append("")

md += ["## Machine", ""]
md += table(["CPU", "cores", "memory", "kernel", "distribution"],
            [[machine["cpu"], machine["cores"], f"{machine['memory_gib']} GiB" if machine["memory_gib"] else "?",
              f"{machine['kernel']} ({machine['architecture']})", machine["distribution"]]])
md += ["", "## Versions", ""]
version_rows = [["healthetl commit", versions["healthetl_commit"]], ["healthetl --version", versions["healthetl"]],
                ["healthetl binary", versions["healthetl_binary"]], ["swift", versions["swift"]],
                ["sqlite3 --version", versions["sqlite3_cli"]]]
version_rows += [[f"package {p}", v] for p, v in versions["packages"].items()]
version_rows += [[f"linked {lib}", path] for lib, path in versions["linked_libraries"].items()]
version_rows += [["Python", versions["python"]], ["healthkit-to-sqlite (peer)", versions["healthkit-to-sqlite"]],
                 ["apple-health-export-mcp (peer)", versions["apple-health-export-mcp"]]]
if versions.get("fitdecode"):  # reports from before the FIT bench lack it
    version_rows.append(["fitdecode (peer of the FIT bench)", versions["fitdecode"]])
md += table(["component", "version"], version_rows)

# The summary's status: a bench that missed a target never reads "ok".
STATUS_TEXT = {
    "ok": lambda b: "ok",
    "missed": lambda b: f"MISSED ({b['targets_missed']} targets)",
    "failed": lambda b: f"FAILED ({b['problem']})",
}
md += ["", "## Summary", ""]
md += table(["bench", "script", "status", "targets met", "targets missed", "seconds"],
            [[b["name"], f"`{b['script']}`", STATUS_TEXT[b["status"]](b),
              b["targets_met"], b["targets_missed"], b["seconds"]] for b in benches])

imported = next((b["result"] for b in benches if b["name"] == "import" and b["result"]), None)
if imported:
    md += ["", "## healthetl and its peers (Apple Health import)", ""]
    records = imported.get("records")
    xml = (imported.get("export") or {}).get("bytes")
    md.append(f"The same export.zip ({cell(records)} records, {cell(xml / 1048576 if xml else None)} MiB of XML), "
              "each tool under `/usr/bin/time -v` with the zip in the page cache.")
    md.append("")
    first = next((f for f in imported.get("figures", []) if f.get("run") == "first"), None)
    rows = []
    for f in imported.get("figures", []):
        if f.get("role") != "peer" and f.get("run") != "first":
            continue
        wall_x = cpu_x = None
        if first and f.get("role") == "peer" and f.get("wall_s") and first.get("wall_s"):
            wall_x = f["wall_s"] / first["wall_s"]
            if f.get("cpu_s") and first.get("cpu_s"):
                cpu_x = f["cpu_s"] / first["cpu_s"]
        rows.append([f["name"], f.get("version"), f.get("wall_s"), f.get("cpu_s"), f.get("records_per_s"),
                     f.get("xml_mib_per_s"), f.get("peak_rss_mb"), f.get("rows"), f.get("status"),
                     f"{wall_x:.1f}x" if wall_x else "-", f"{cpu_x:.1f}x" if cpu_x else "-"])
    md += table(["tool", "version", "wall s", "CPU s", "records/s", "MiB/s (XML)", "peak RSS MB", "rows",
                 "status", "healthetl faster (wall)", "(CPU)"], rows)

fit = next((b["result"] for b in benches if b["name"] == "fit" and b["result"]), None)
if fit:
    md += ["", "## healthetl and fitdecode (FIT files)", ""]
    md.append(f"The same folder of {cell(fit.get('files'))} files ({cell(fit.get('data_messages'))} FIT data messages), "
              "each tool with the files in the page cache. healthetl's decode figure is the fit adapter alone (split, "
              "CRC, decode and map; no normalizer, no store); its import figure is end to end into a fresh store.")
    md.append("")
    peer = next((f for f in fit.get("figures", []) if f.get("name") == "fitdecode"), None)
    rows = []
    for f in fit.get("figures", []):
        faster = None
        if peer and f is not peer and f.get("messages_per_s") and peer.get("messages_per_s"):
            faster = f["messages_per_s"] / peer["messages_per_s"]
        rows.append([f.get("tool"), f.get("name"), f.get("files"), f.get("data_messages"), f.get("wall_s"),
                     f.get("messages_per_s"), f.get("samples_per_s"), f.get("peak_rss_mb"),
                     f"{faster:.1f}x" if faster else "-"])
    md += table(["tool", "run", "files", "data messages", "wall s", "messages/s", "samples/s", "peak RSS MB",
                 "messages/s vs fitdecode"], rows)

for b in benches:
    result = b["result"] or {}
    md += ["", f"## {b['name']}: {result.get('title') or b['script']}", ""]
    md.append(f"`{b['script']}`: " + {"ok": "ok", "missed": f"**MISSED** {b['targets_missed']} targets"}.get(
        b["status"], f"**FAILED** ({b['problem']})")
              + f", {cell(b['seconds'])} s.")
    md.append("")
    if result.get("figures"):
        md += figures_table(result["figures"])
        md.append("")
    if result.get("targets"):
        md += table(["target", "value", "limit", "verdict", "detail"],
                    [[t.get("name"), t.get("value"), t.get("target"), "met" if t.get("met") else "MISSED",
                      t.get("text")] for t in result["targets"]])
        md.append("")
    for skipped in result.get("skipped", []):
        md.append(f"- skipped {cell(skipped.get('records'))} records: {skipped.get('reason')}")
    for failure in result.get("failures", []):
        md.append(f"- FAILURE: {cell(failure)}")
    if result.get("skipped") or result.get("failures"):
        md.append("")
    lines = b["output"].splitlines()
    if b["status"] == "failed":
        md += ["Last lines of its output:", "", "```text", *lines[-30:], "```", ""]
    md += ["<details><summary>Printed output</summary>", "", "```text", *lines, "```", "", "</details>"]

with open(prefix + ".md", "w", encoding="utf-8") as f:
    f.write("\n".join(md) + "\n")
print()
print(f"bench report: {prefix}.md and {prefix}.json")
for b in benches:
    verdict = {"ok": "ok    ", "missed": "MISSED"}.get(b["status"], "FAILED")
    print(f"  {verdict}  {b['name']:<20} {b['targets_met']} targets met, {b['targets_missed']} missed"
          + (f" ({b['problem']})" if b["status"] == "failed" else ""))
sys.exit(1 if failed or missed else 0)
PY
