#!/usr/bin/env bash
# The Python tools the export and report tests use, pinned, in a throwaway virtualenv under
# .build (reused while it has the pinned versions): fhir.resources validates every exported FHIR
# resource against the R4B models; websocket-client drives headless Chromium through the DevTools
# protocol; Pillow reads the report's screenshot; fitdecode reads the simulated FIT files back
# (fit_oracle.py); mcp, the official MCP Python SDK, is the client of `healthetl mcp` and
# `serve --mcp` (mcp_client.py).
#
#   Tests/tools/test-venv.sh        prints the virtualenv's python, installing first when needed
set -euo pipefail

FHIR_RESOURCES_VERSION=8.3.0
WEBSOCKET_CLIENT_VERSION=1.9.2
PILLOW_VERSION=13.0.0
FITDECODE_VERSION=0.11.0
MCP_VERSION=1.30.0

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
venv="${HEALTHETL_TEST_VENV:-$root/.build/test-venv}"

# One installer at a time: the test suites may ask for it concurrently.
mkdir -p "$(dirname "$venv")"
exec 9>"$venv.lock"
flock 9

if [[ ! -x "$venv/bin/python" ]]; then
    python3 -m venv "$venv" >&2
fi
if ! "$venv/bin/python" - "$FHIR_RESOURCES_VERSION" "$WEBSOCKET_CLIENT_VERSION" "$PILLOW_VERSION" "$FITDECODE_VERSION" "$MCP_VERSION" <<'PY' 2>/dev/null; then
import sys
from importlib.metadata import version
wanted = tuple(sys.argv[1:])
installed = tuple(version(name) for name in ("fhir.resources", "websocket-client", "pillow", "fitdecode", "mcp"))
sys.exit(0 if installed == wanted else 1)
PY
    echo "test-venv: installing fhir.resources==$FHIR_RESOURCES_VERSION websocket-client==$WEBSOCKET_CLIENT_VERSION pillow==$PILLOW_VERSION fitdecode==$FITDECODE_VERSION mcp==$MCP_VERSION into $venv" >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
        "fhir.resources==$FHIR_RESOURCES_VERSION" "websocket-client==$WEBSOCKET_CLIENT_VERSION" \
        "pillow==$PILLOW_VERSION" "fitdecode==$FITDECODE_VERSION" "mcp==$MCP_VERSION" >&2
fi
echo "$venv/bin/python"
