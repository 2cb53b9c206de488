#!/usr/bin/env bash
# A bounded API fuzz run: schemathesis generates requests from Docs/openapi.yaml and sends them
# to a throwaway collector (the already-built binary) on 127.0.0.1. It fails on any 5xx, any
# undocumented status code, content type or header, and any response body that does not match
# its schema.
#
#   Tests/api-fuzz/run.sh                  (from the repository root, after `swift build`)
#
# Environment:
#   HEALTHETL_BIN           the binary to serve (default .build/debug/healthetl)
#   API_FUZZ_MAX_EXAMPLES   test cases per operation and phase (default 50)
#   API_FUZZ_TIMEOUT        hard limit on the whole schemathesis run, seconds (default 240)
#   API_FUZZ_SEED           replay a run by its seed (printed at the end of every run)
#   API_FUZZ_POSTGRES=1     serve from a throwaway PostgreSQL cluster instead of SQLite
#
# The JUnit report and the server's log are left in .build/api-fuzz-report/. The last line printed
# is `N passed, N failed`, counting API operations (skipped ones in neither).
set -euo pipefail

SCHEMATHESIS_VERSION=4.32.5
ZSTANDARD_VERSION=0.25.0

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
bin="${HEALTHETL_BIN:-.build/debug/healthetl}"
spec="$root/Docs/openapi.yaml"
venv="$root/.build/api-fuzz-venv"
report="$root/.build/api-fuzz-report"
max_examples="${API_FUZZ_MAX_EXAMPLES:-50}"
budget="${API_FUZZ_TIMEOUT:-240}"

if [[ ! -x "$bin" ]]; then
    echo "api-fuzz: no executable at $bin; run 'swift build' first (or set HEALTHETL_BIN)" >&2
    exit 2
fi

# The tools, pinned, in their own virtualenv (reused while it has the pinned versions).
if [[ ! -x "$venv/bin/python" ]]; then
    python3 -m venv "$venv"
fi
if ! "$venv/bin/python" - "$SCHEMATHESIS_VERSION" "$ZSTANDARD_VERSION" <<'EOF' 2>/dev/null; then
import sys
from importlib.metadata import version
sys.exit(0 if (version("schemathesis"), version("zstandard")) == (sys.argv[1], sys.argv[2]) else 1)
EOF
    echo "api-fuzz: installing schemathesis==$SCHEMATHESIS_VERSION into $venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
        "schemathesis==$SCHEMATHESIS_VERSION" "zstandard==$ZSTANDARD_VERSION"
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/healthetl-api-fuzz.XXXXXX")"
server_pid=""
database=()
# shellcheck source=scripts/throwaway-postgres.sh
source "$(dirname "$0")/../../scripts/throwaway-postgres.sh"
cleanup() {
    if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null; then
        kill -TERM "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    throwaway_postgres_stop
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

rm -rf "$report"
mkdir -p "$report"

# A private tokens file with one random token.
token="$("$venv/bin/python" -c 'import secrets; print(secrets.token_hex(32))')"
(umask 077 && printf 'fuzz %s\n' "$token" > "$work/tokens")
chmod 600 "$work/tokens"

if [[ "${API_FUZZ_POSTGRES:-0}" == 1 ]]; then
    chmod 755 "$work"
    throwaway_postgres_start "$work/postgres"
    database=(--database "$(throwaway_postgres_database fuzz)")
    echo "api-fuzz: the collector's data in a throwaway PostgreSQL cluster"
fi

# The collector on a free loopback port; it prints its address once it listens.
"$bin" serve --host 127.0.0.1 --port 0 --data "$work/data" --tokens "$work/tokens" "${database[@]}" \
    > "$work/server.out" 2> "$report/server.log" &
server_pid=$!
port=""
for _ in $(seq 1 300); do
    port="$(sed -n 's|^healthetl collector listening on http://127\.0\.0\.1:\([0-9][0-9]*\) .*|\1|p' "$work/server.out")"
    [[ -n "$port" ]] && break
    if ! kill -0 "$server_pid" 2>/dev/null; then
        echo "api-fuzz: the collector exited before listening:" >&2
        cat "$report/server.log" >&2
        echo "0 passed, 1 failed"
        exit 1
    fi
    sleep 0.1
done
if [[ -z "$port" ]]; then
    echo "api-fuzz: the collector did not report a port within 30 s" >&2
    echo "0 passed, 1 failed"
    exit 1
fi
base_url="http://127.0.0.1:$port"
echo "api-fuzz: collector (pid $server_pid) on $base_url; schemathesis $SCHEMATHESIS_VERSION," \
    "$max_examples cases per operation and phase, at most ${budget}s"

# One worker: with two threads, hypothesis' parsing of lambda sources can hit CPython 3.11's
# "AST constructor recursion depth mismatch" (a spurious, flaky error of the tool, not the API).
command=(
    "$venv/bin/schemathesis" run "$spec"
    --url "$base_url"
    --header "Authorization: Bearer $token"
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance
    --phases examples,coverage,fuzzing
    --max-examples "$max_examples"
    --workers 1
    --request-timeout 10
    --generation-database none
    # The change stream stays open by design (Server-Sent Events): a request/response fuzzer would
    # only wait out its timeout. ChangeStreamTests drive it instead.
    --exclude-operation-id streamChanges
    --no-color
    --report junit --report-junit-path "$report/junit.xml"
)
if [[ -n "${API_FUZZ_SEED:-}" ]]; then
    command+=(--seed "$API_FUZZ_SEED")
fi

# Only loopback traffic: no proxy, no remote schema or examples (the spec is a local file).
# Run from the temporary directory: schemathesis and hypothesis keep caches in the current one.
status=0
cd "$work"
env -u HTTP_PROXY -u HTTPS_PROXY -u ALL_PROXY -u http_proxy -u https_proxy -u all_proxy \
    NO_PROXY='*' SCHEMATHESIS_HOOKS=hooks PYTHONPATH="$root/Tests/api-fuzz" \
    timeout --signal=INT --kill-after=30 "$budget" "${command[@]}" || status=$?
cd "$root"
if [[ $status -eq 124 || $status -eq 137 ]]; then
    echo "api-fuzz: schemathesis did not finish within ${budget}s" >&2
fi

crashed=0
if ! kill -0 "$server_pid" 2>/dev/null; then
    crashed=1
    echo "api-fuzz: the collector died during the run (log: $report/server.log):" >&2
    grep -E -A8 'Program crashed|Fatal error| crashed:$' "$report/server.log" | head -30 >&2 || true
fi

# The counts, per API operation, from the JUnit report (all operations failed when it is missing).
read -r passed failed < <("$venv/bin/python" - "$report/junit.xml" "$spec" <<'EOF'
import sys
import xml.etree.ElementTree as ET

import yaml

try:
    passed = failed = 0
    for case in ET.parse(sys.argv[1]).getroot().iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            failed += 1  # an operation, or the run itself (e.g. "Server" when the collector died)
        elif case.find("skipped") is None:
            passed += 1
    print(passed, failed)
except (OSError, ET.ParseError):
    paths = yaml.safe_load(open(sys.argv[2]))["paths"]
    methods = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}
    print(0, sum(1 for item in paths.values() for method in item if method in methods))
EOF
)

if [[ $crashed -eq 1 ]]; then
    status=1
    if [[ $failed -eq 0 ]]; then
        failed=1
        passed=$((passed > 0 ? passed - 1 : 0))
    fi
fi
if [[ $status -eq 0 && $failed -gt 0 ]]; then
    status=1
fi
echo "$passed passed, $failed failed"
exit "$status"
