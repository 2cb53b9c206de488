#!/usr/bin/env python3
"""The official MCP Python SDK (`mcp`, pinned in test-venv.sh) as a real client of healthetl.

  mcp_client.py stdio BINARY STORE FIRST LAST
      `healthetl mcp` over standard input and output: initializes, lists tools, resources (every
      page) and prompts, calls every tool, and compares each answer with what the command line
      says of the same store (`projections --local --json`, `insights --local --json`,
      `export --format ndjson`, `status --json`); bad arguments, the `--metrics` allow-list, and
      the protocol surface as the specification writes it (a parse error, ping, cancellation).

  mcp_client.py http BINARY URL ALICE_TOKEN ALICE_STORE BOB_TOKEN BOB_STORE FIRST LAST
      `serve --mcp` over Streamable HTTP for two users: each sees exactly their own data (against
      their own store and the collector's REST API with their token), no token or a wrong one
      gets 401, a malformed JSON-RPC body gets a JSON-RPC parse error.

Prints one JSON object: {"checks": N, "failures": [...]}; exits 1 when anything failed.
The SDK client validates every tool's structured content against the tool's output schema.
"""
import asyncio
import datetime
import json
import subprocess
import sys

import httpx
from mcp import ClientSession, McpError, StdioServerParameters, types
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamablehttp_client

STORE_TOOLS = {"list_metrics", "daily", "sleep", "workouts", "insights", "samples", "sources", "status"}
COLLECTOR_TOOLS = STORE_TOOLS - {"workouts"}

checks = 0
failures = []


def check(condition, what):
    global checks
    checks += 1
    if not condition:
        failures.append(what)


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def cli(binary, store, *arguments):
    result = subprocess.run([binary, "--store", store, *arguments], capture_output=True, text=True, timeout=300)
    if result.returncode != 0:
        raise RuntimeError(f"healthetl {' '.join(arguments)}: {result.stderr}")
    return result.stdout


def instant(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))


def same_rollups(answered, expected, what):
    """The tool's days against `projections --json`'s, every figure but when it was computed."""
    check(len(answered) == len(expected), f"{what}: {len(answered)} days, the command line has {len(expected)}")
    for got, want in zip(answered, expected):
        for key in ("day", "count", "sources"):
            check(got.get(key) == want.get(key), f"{what} {want['day']} {key}: {got.get(key)!r} != {want.get(key)!r}")
        for key in ("sum", "avg", "min", "max", "latest", "coverage_s"):
            check(close(got.get(key), want.get(key)), f"{what} {want['day']} {key}: {got.get(key)} != {want.get(key)}")


def grouped_by_metric(days):
    """`insights --json`'s days as the tool lists them: under their metric, without it."""
    grouped = {}
    for day in days:
        grouped.setdefault(day["metric"], []).append({key: value for key, value in day.items() if key != "metric"})
    return grouped


def same_nights(answered, expected, what):
    check(len(answered) == len(expected), f"{what}: {len(answered)} nights, the command line has {len(expected)}")
    for got, want in zip(answered, expected):
        for key in ("night", "source", "in_bed_s", "asleep_s", "core_s", "deep_s", "rem_s", "awake_s"):
            check(got.get(key) == want.get(key), f"{what} {want['night']} {key}: {got.get(key)!r} != {want.get(key)!r}")


async def call(session, tool, arguments):
    result = await session.call_tool(tool, arguments)
    return result


async def good(session, tool, arguments):
    result = await call(session, tool, arguments)
    check(not result.isError, f"{tool} {arguments}: error {result.content[0].text if result.content else ''}")
    check(result.structuredContent is not None, f"{tool}: no structured content")
    check(bool(result.content) and result.content[0].type == "text" and result.content[0].text, f"{tool}: no text")
    return result.structuredContent or {}


async def refused(session, tool, arguments, needle):
    result = await call(session, tool, arguments)
    text = result.content[0].text if result.content else ""
    check(result.isError is True, f"{tool} {arguments}: not refused")
    check(needle in text, f"{tool} {arguments}: the error {text!r} does not say {needle!r}")


async def every_resource(session):
    resources, cursor, pages = [], None, 0
    while True:
        page = await session.list_resources(cursor)
        resources += page.resources
        pages += 1
        cursor = page.nextCursor
        if cursor is None or pages > 100:
            return resources, pages


async def stdio(binary, store, first, last):
    status = json.loads(cli(binary, store, "status", "--json"))
    by_metric = status["samples"]["by_metric"]
    parameters = StdioServerParameters(command=binary, args=["--store", store, "mcp"])
    async with stdio_client(parameters) as (read, write):
        async with ClientSession(read, write) as session:
            initialized = await session.initialize()
            check(initialized.protocolVersion == types.LATEST_PROTOCOL_VERSION, f"protocol {initialized.protocolVersion}")
            check(initialized.serverInfo.name == "healthetl", "server name")
            capabilities = initialized.capabilities
            check(capabilities.tools is not None and capabilities.resources is not None, "capabilities")
            check(capabilities.prompts is not None, "prompt capability")

            tools = (await session.list_tools()).tools
            check({tool.name for tool in tools} == STORE_TOOLS, f"tools {[tool.name for tool in tools]}")
            for tool in tools:
                check(tool.annotations is not None and tool.annotations.readOnlyHint is True, f"{tool.name} readOnlyHint")
                check(tool.outputSchema is not None, f"{tool.name} has no output schema")

            # list_metrics: every metric with its count, as `status` counts them.
            listed = await good(session, "list_metrics", {})
            counts = {metric["metric"]: metric["samples"] for metric in listed["metrics"]}
            check(counts == by_metric, f"list_metrics counts differ from status: {counts} != {by_metric}")
            check(listed["origin"] == "store", "origin")

            # daily: as `projections --local --json` computes it.
            for metric in ("step_count", "heart_rate", "active_energy_burned"):
                expected = json.loads(
                    cli(binary, store, "projections", "--local", "--json", "--metric", metric, "--from", first, "--to", last))
                daily = await good(session, "daily", {"metric": metric, "from": first, "to": last})
                check(daily["unit"] is not None and daily["metric"] == metric, f"daily {metric}: no unit or metric")
                check(daily["computed_at"] is not None, f"daily {metric}: no computed_at")
                check(len(expected["days"]) > 0, f"daily {metric}: the command line has no days to compare")
                same_rollups(daily["days"], expected["days"], f"daily {metric}")
                used = sorted({source for day in expected["days"] for source in day["sources"]})
                check(daily["sources_used"] == used, f"daily {metric} sources_used")

            # sleep: the nights `projections` computes.
            expected = json.loads(
                cli(binary, store, "projections", "--local", "--json", "--metric", "sleep_analysis", "--from", first,
                    "--to", last))
            sleep = await good(session, "sleep", {"from": first, "to": last})
            check(len(expected["nights"]) > 0, "sleep: the command line has no nights to compare")
            same_nights(sleep["nights"], expected["nights"], "sleep")

            # insights: as `insights --local --json`.
            expected = json.loads(cli(binary, store, "insights", "--local", "--json", "--from", first, "--to", last))
            insights = await good(session, "insights", {"from": first, "to": last})
            check(insights["days"] == grouped_by_metric(expected["days"]), "insights days differ from `insights --local --json`")
            check(insights["insights"] == expected["insights"], "insights differ from `insights --local --json`")
            check([rule["test"] for rule in insights["rules"]] == [rule["test"] for rule in expected["rules"]], "rules")
            check(len(expected["days"]) > 0, "insights: nothing to compare")

            # samples, raw: the samples `export` writes, in the same order of time.
            exported = [json.loads(line) for line in
                        cli(binary, store, "export", "--format", "ndjson", "--metric", "heart_rate", "--from", last,
                            "--to", last).splitlines() if line]
            raw = await good(session, "samples", {"metric": "heart_rate", "from": last, "to": last, "raw": True,
                                                  "limit": 5000})
            check(len(exported) > 0 and len(exported) < 5000, f"samples: {len(exported)} exported samples to compare")
            check(raw["truncated"] is False, "samples raw: truncated")
            got = sorted((instant(s["start"]), s["value"], s["source"]) for s in raw["samples"])
            want = sorted((instant(s["start"]), s["value"], s["source"]) for s in exported)
            check(got == want, f"samples raw differ from export: {len(got)} against {len(want)}")
            capped = await good(session, "samples", {"metric": "heart_rate", "from": last, "to": last, "raw": True,
                                                     "limit": 10})
            check(len(capped["samples"]) == 10 and capped["truncated"] is True, "samples limit 10 not truncated")

            # samples by day and source: the counts and sums of the same samples.
            by_day = await good(session, "samples", {"metric": "heart_rate", "from": last, "to": last})
            check(sum(b["count"] for b in by_day["buckets"]) == len(exported), "samples by day: counts")
            for source in {s["source"] for s in exported}:
                values = [s["value"] for s in exported if s["source"] == source]
                bucket = [b for b in by_day["buckets"] if b["source"] == source]
                check(len(bucket) == 1 and close(bucket[0]["avg"], sum(values) / len(values)), f"samples mean {source}")
                check(bucket[0]["min"] == min(values) and bucket[0]["max"] == max(values), f"samples min/max {source}")
            by_hour = await good(session, "samples", {"metric": "heart_rate", "from": last, "to": last,
                                                      "bucket": "hour"})
            check(sum(b["count"] for b in by_hour["buckets"]) == len(exported), "samples by hour: counts")

            # workouts over everything: as many as the store holds.
            workouts = await good(session, "workouts", {"from": "2000-01-01", "to": "2009-12-31"})
            check(workouts["workouts"] == [], "workouts before 2010")
            workouts = await good(session, "workouts", {"from": first, "to": last})
            running = await good(session, "workouts", {"from": first, "to": last, "activity": "running"})
            check(len(workouts["workouts"]) > 0, "no workouts to compare")
            check(all("running" in w["activity"].lower() for w in running["workouts"]), "activity filter")
            check(0 < len(running["workouts"]) < len(workouts["workouts"]), "activity filter kept none or all")

            sources = await good(session, "sources", {})
            check(sum(s["samples"] for s in sources["sources"]) == status["samples"]["total"], "sources counts")
            check(all(s["devices"] == [] for s in sources["sources"]), "devices shown unasked")
            with_devices = await good(session, "sources", {"include_devices": True})
            check(any(s["devices"] for s in with_devices["sources"]), "include_devices shows none")

            answered = await good(session, "status", {})
            check(answered["status"]["samples"] == status["samples"]["total"], "status samples")
            check(answered["status"]["last_import"] is not None, "status last_import")

            # Mistakes get tool errors the model can act on.
            await refused(session, "daily", {"metric": "stepcount"}, "step_count")
            await refused(session, "daily", {"metric": "step_count", "from": "2000-01-01", "to": last}, "3660")
            await refused(session, "daily", {"metric": "step_count", "from": last, "to": first}, "must not be after")
            await refused(session, "daily", {"metric": "step_count", "from": "yesterday"}, "YYYY-MM-DD")
            await refused(session, "daily", {}, "metric is required")
            await refused(session, "samples", {"metric": "heart_rate", "raw": True, "limit": 6000}, "5000")
            await refused(session, "samples", {"metric": "heart_rate", "bucket": "hour", "from": "2020-01-01",
                                               "to": last}, "93")
            await refused(session, "samples", {"metric": "heart_rate", "bucket": "minute"}, "hour, day or week")
            await refused(session, "no_such_tool", {}, "list_metrics")

            # Resources: the whole catalog and one per metric, over every page.
            resources, pages = await every_resource(session)
            catalog = json.loads((await session.read_resource("healthetl://catalog")).contents[0].text)
            check(len(resources) == len(catalog) + 1, f"{len(resources)} resources for {len(catalog)} metrics")
            check(pages > 1, "resources came in one page: pagination untested")
            check(len({resource.uri for resource in resources}) == len(resources), "a resource listed twice")
            heart = json.loads((await session.read_resource("healthetl://catalog/heart_rate")).contents[0].text)
            check(heart["unit"] == "/min", f"heart_rate's unit {heart['unit']}")
            try:
                await session.list_resources("not-a-cursor")
                check(False, "an unknown cursor was accepted")
            except McpError:
                check(True, "")
            try:
                await session.read_resource("healthetl://catalog/no_such_metric")
                check(False, "an unknown resource was read")
            except McpError:
                check(True, "")

            prompts = (await session.list_prompts()).prompts
            check({prompt.name for prompt in prompts} == {"weekly_summary", "compare_periods"}, "prompts")
            weekly = await session.get_prompt("weekly_summary", {"week_ending": last})
            check(last in weekly.messages[0].content.text and "insights" in weekly.messages[0].content.text, "weekly")
            compare = await session.get_prompt("compare_periods", {
                "first_from": first, "first_to": first, "second_from": last, "second_to": last})
            check("daily" in compare.messages[0].content.text, "compare_periods names daily")
            try:
                await session.get_prompt("compare_periods", {"first_from": first})
                check(False, "compare_periods without its periods was answered")
            except McpError:
                check(True, "")

    # `--metrics`: only the named metrics (and no workouts unless named).
    limited = StdioServerParameters(command=binary, args=["--store", store, "mcp", "--metrics", "step_count"])
    async with stdio_client(limited) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            tools = {tool.name for tool in (await session.list_tools()).tools}
            check("workouts" not in tools, "workouts listed though --metrics does not name it")
            listed = await good(session, "list_metrics", {})
            check([m["metric"] for m in listed["metrics"]] == ["step_count"], "--metrics: other metrics listed")
            await refused(session, "daily", {"metric": "heart_rate"}, "heart_rate")
            await refused(session, "sleep", {}, "not among the metrics")
            resources, _ = await every_resource(session)
            check(len(resources) == 2, f"--metrics: {len(resources)} resources")

    raw_protocol(binary, store, first, last)


def raw_protocol(binary, store, first, last):
    """The specification's own messages, written by hand: a line that is no JSON gets a parse
    error, ping gets an empty result, and a cancelled call leaves the server answering."""
    process = subprocess.Popen([binary, "--store", store, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True)

    def send(message):
        process.stdin.write((message if isinstance(message, str) else json.dumps(message)) + "\n")
        process.stdin.flush()

    def answer(wanted):
        """The next message `wanted` accepts (answers arrive in any order)."""
        while True:
            line = process.stdout.readline()
            if not line:
                return None
            message = json.loads(line)
            if wanted(message):
                return message

    def to(request):
        return lambda message: message.get("id") == request

    try:
        send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "spec", "version": "1"}}})
        initialized = answer(to(1))
        check(initialized is not None and initialized["result"]["protocolVersion"] == "2025-11-25", "raw initialize")
        send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        send("{this is not json")
        # JSON-RPC 2.0 answers a parse error with id null; the Swift SDK (0.12.1) gives it an id
        # of its own making, so the error is recognised by its code alone.
        error = answer(lambda message: "error" in message and message.get("id") not in (2, 3))
        check(error is not None and error.get("error", {}).get("code") == -32700, f"parse error: {error}")
        send({"jsonrpc": "2.0", "id": 2, "method": "ping"})
        pong = answer(to(2))
        check(pong is not None and pong.get("result") == {}, f"ping: {pong}")
        send({"jsonrpc": "2.0", "id": 3, "method": "no/such/method"})
        missing = answer(to(3))
        check(missing is not None and missing.get("error", {}).get("code") == -32601, f"unknown method: {missing}")
        # A long call, cancelled at once: the server may have answered already (cancellation is
        # advisory), but it must go on answering.
        send({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {
            "name": "samples", "arguments": {"metric": "heart_rate", "from": "2015-01-01", "to": last,
                                             "bucket": "week"}}})
        send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 4, "reason": "test"}})
        send({"jsonrpc": "2.0", "id": 5, "method": "tools/list", "params": {}})
        listed = answer(to(5))
        check(listed is not None and len(listed["result"]["tools"]) == len(STORE_TOOLS), "tools/list after a cancel")
    finally:
        process.stdin.close()
        try:
            code = process.wait(timeout=30)
            check(code == 0, f"`healthetl mcp` exited {code} when its input closed")
        except subprocess.TimeoutExpired:
            process.kill()
            check(False, "`healthetl mcp` did not exit when its input closed")


async def http(url, users, first, last):
    seen = {}
    for name, token, store, binary in users:
        status = json.loads(cli(binary, store, "status", "--json"))
        headers = {"Authorization": f"Bearer {token}"}
        async with streamablehttp_client(f"{url}/mcp", headers=headers) as (read, write, _):
            async with ClientSession(read, write) as session:
                initialized = await session.initialize()
                check(initialized.serverInfo.name == "healthetl", f"{name}: server name")
                tools = {tool.name for tool in (await session.list_tools()).tools}
                check(tools == COLLECTOR_TOOLS, f"{name}: tools {sorted(tools)}")
                listed = await good(session, "list_metrics", {})
                check(listed["origin"] == "collector", f"{name}: origin")
                counts = {metric["metric"]: metric["samples"] for metric in listed["metrics"]}
                check(counts == status["samples"]["by_metric"], f"{name}: list_metrics is not their own store's")
                sources = await good(session, "sources", {})
                seen[name] = (counts, {source["name"] for source in sources["sources"]})
                # daily against the collector's REST API with the same token.
                for metric in ("step_count", "heart_rate"):
                    daily = await good(session, "daily", {"metric": metric, "from": first, "to": last})
                    rest = httpx.get(f"{url}/v1/projections/daily", params={"metric": metric, "from": first, "to": last},
                                     headers=headers, timeout=60).json()
                    same_rollups(daily["days"], rest["days"], f"{name} daily {metric}")
                sleep = await good(session, "sleep", {"from": first, "to": last})
                rest = httpx.get(f"{url}/v1/projections/sleep", params={"from": first, "to": last}, headers=headers,
                                 timeout=60).json()
                same_nights(sleep["nights"], rest["nights"], f"{name} sleep")
                insights = await good(session, "insights", {"from": first, "to": last})
                rest = httpx.get(f"{url}/v1/projections/insights", params={"from": first, "to": last},
                                 headers=headers, timeout=60).json()
                check(insights["days"] == grouped_by_metric(rest["days"]) and insights["insights"] == rest["insights"],
                      f"{name} insights")
                exported = [json.loads(line) for line in cli(
                    binary, store, "export", "--format", "ndjson", "--metric", "heart_rate", "--from", last, "--to",
                    last).splitlines() if line]
                raw = await good(session, "samples", {"metric": "heart_rate", "from": last, "to": last, "raw": True,
                                                      "limit": 5000})
                got = sorted((instant(s["start"]), s["value"], s["source"]) for s in raw["samples"])
                want = sorted((instant(s["start"]), s["value"], s["source"]) for s in exported)
                check(got == want, f"{name} samples raw differ from their export: {len(got)} against {len(want)}")
                answered = await good(session, "status", {})
                check(answered["status"]["samples"] == status["samples"]["total"], f"{name}: status samples")
                check(answered["status"]["last_received"] is not None, f"{name}: status last_received")
                await refused(session, "workouts", {}, "list_metrics")
    (alice_counts, alice_sources), (bob_counts, bob_sources) = seen["alice"], seen["bob"]
    check(alice_counts != bob_counts, "both users see the same metrics")
    check(alice_sources != bob_sources, "both users see the same sources")

    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "spec", "version": "1"}}}
    accept = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    anonymous = httpx.post(f"{url}/mcp", json=initialize, headers=accept, timeout=30)
    check(anonymous.status_code == 401, f"no token: {anonymous.status_code}")
    wrong = httpx.post(f"{url}/mcp", json=initialize, headers={**accept, "Authorization": "Bearer not-a-token"},
                       timeout=30)
    check(wrong.status_code == 401, f"a wrong token: {wrong.status_code}")
    alice = {**accept, "Authorization": f"Bearer {users[0][1]}"}
    malformed = httpx.post(f"{url}/mcp", content=b"{this is not json", headers=alice, timeout=30)
    check(malformed.status_code == 400, f"malformed body: {malformed.status_code}")
    try:
        code = malformed.json().get("error", {}).get("code")
    except ValueError:
        code = None
    check(code == -32700, f"malformed body: JSON-RPC error {code}")
    fetched = httpx.get(f"{url}/mcp", headers=alice, timeout=30)
    check(fetched.status_code == 405, f"GET /mcp: {fetched.status_code}")


def main():
    mode = sys.argv[1]
    if mode == "stdio":
        binary, store, first, last = sys.argv[2:6]
        asyncio.run(stdio(binary, store, first, last))
    elif mode == "http":
        binary, url, alice_token, alice_store, bob_token, bob_store, first, last = sys.argv[2:10]
        users = [("alice", alice_token, alice_store, binary), ("bob", bob_token, bob_store, binary)]
        asyncio.run(http(url, users, first, last))
    else:
        raise SystemExit(f"unknown mode {mode}")
    print(json.dumps({"checks": checks, "failures": failures}))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
