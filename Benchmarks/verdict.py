#!/usr/bin/env python3
"""The verdict of a `make bench` run: every bench's JSON document in DIR (BENCH_JSON_DIR), and which
of the expected benches wrote none. Prints one line per bench — ok, MISSED (a target missed) or FAILED
(a failure, or no document) — and exits non-zero unless every bench is ok.

    Benchmarks/verdict.py DIR NAME...
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchjson  # noqa: E402


def main(directory, names):
    worst = 0
    for name in names:
        text = benchjson.read_text(os.path.join(directory, f"{name}.json"))
        document = json.loads(text) if text else None
        if document is None:
            verdict, detail = "FAILED", "it wrote no JSON"
        else:
            verdict, detail = benchjson.verdict(document)
        worst = max(worst, {"ok": 0, "MISSED": 1, "FAILED": 2}[verdict])
        print(f"  {verdict:<6}  {name:<20} {detail}")
    return 1 if worst else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:]))
