"""benchjson — what the benchmark scripts' embedded python shares: reading a run's logs, the JSON document.

Every Benchmarks/*-bench.sh (and run.sh) ends in embedded python3 that prints its figures and, with
BENCH_JSON_DIR (or BENCH_JSON) set, writes them as one JSON document, which bench-report.sh gathers:

    {"bench": NAME, "title": TEXT, "date": ISO 8601 UTC, ...the bench's own keys..., "figures": [...],
     "targets": [{"name", "met", "value", "target", "text"}, ...], "failures": [TEXT, ...], "ok": BOOL}

    read_text       a file's text, or a default
    last_json       the JSON object a tool printed (--json) among its output
    timing          a timed run's logs/NAME.time (/usr/bin/time -v) and logs/NAME.rc
    target          one entry of "targets"
    print_targets   the printed targets block (ok / MISSED) and the FAILURE lines
    write_document  the document itself, with its date and ok
    verdict         a document's verdict: ok, MISSED (a target missed) or FAILED, with one line of detail

The scripts import it with PYTHONPATH set to this directory (and PYTHONDONTWRITEBYTECODE=1, so that
no __pycache__ is left in the repository):

    PYTHONPATH="$ROOT/Benchmarks" PYTHONDONTWRITEBYTECODE=1 python3 - ARGS... <<'PY'
    import benchjson
    ...
    PY
"""
import datetime
import json
import os
import re

__all__ = ["read_text", "last_json", "timing", "target", "print_targets", "write_document", "verdict"]


def read_text(path, default=None):
    """A file's text (undecodable bytes replaced), or default when it cannot be read."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return default


def last_json(text):
    """What a tool printed with --json: the whole text as JSON, else its last line that parses as a JSON
    object; None when there is none."""
    text = text or ""
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


def timing(logs, name):
    """A run's logs/NAME.time (/usr/bin/time -v) and logs/NAME.rc as wall, CPU (user + sys), user and sys
    seconds, peak RSS in bytes and the exit status (None where the report lacks one) — or None if the run
    did not happen."""
    text, rc = read_text(os.path.join(logs, f"{name}.time")), read_text(os.path.join(logs, f"{name}.rc"))
    if text is None or rc is None:
        return None
    wall = rss = None
    m = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", text)
    if m:
        wall = sum(float(p) * 60 ** i for i, p in enumerate(reversed(m.group(1).split(":"))))
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", text)
    if m:
        rss = int(m.group(1)) * 1024
    user = re.search(r"User time \(seconds\): ([\d.]+)", text)
    system = re.search(r"System time \(seconds\): ([\d.]+)", text)
    user = float(user.group(1)) if user else None
    system = float(system.group(1)) if system else None
    cpu = user + system if user is not None and system is not None else None
    return {"wall": wall, "cpu": cpu, "user": user, "sys": system, "rss": rss, "rc": int(rc.strip() or "1")}


def target(name, met, value, limit, text):
    """One target verdict: its name, whether it was met, the value measured, the limit (as text) and one line."""
    return {"name": name, "met": bool(met), "value": value, "target": limit, "text": text}


def print_targets(targets, failures):
    """Prints the targets block (`ok    ` or `MISSED` before each line, when there are any), then each failure."""
    if targets:
        print("  targets")
        for t in targets:
            print(f"    {'ok    ' if t['met'] else 'MISSED'}  {t['text']}")
        print()
    for failure in failures:
        print(f"  FAILURE: {failure}")
    if failures:
        print()


def write_document(path, bench, title, figures, targets, failures, **extra):
    """Writes a bench's JSON document to path: bench, title, the date (now, UTC), the extra keys in the
    order given, figures, targets, failures, and ok (no failures). Returns the document."""
    document = {
        "bench": bench,
        "title": title,
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        **extra,
        "figures": figures,
        "targets": targets,
        "failures": failures,
        "ok": not failures,
    }
    with open(path, "w", encoding="utf-8") as f:
        json.dump(document, f, indent=2)
        f.write("\n")
    return document


def verdict(document):
    """A bench's verdict from its document: FAILED when it reported failures, MISSED when a target was
    missed (never "ok" then), else ok; and a line naming what was met and missed."""
    targets = document.get("targets", [])
    missed = [t.get("name") for t in targets if not t.get("met")]
    detail = f"{len(targets) - len(missed)} targets met, {len(missed)} missed" + (
        f" ({', '.join(str(m) for m in missed)})" if missed else "")
    if not document.get("ok", True) or document.get("failures"):
        return "FAILED", detail + f"; {len(document.get('failures', []))} failures"
    return ("MISSED" if missed else "ok"), detail
