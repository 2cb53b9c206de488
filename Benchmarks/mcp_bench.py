#!/usr/bin/env python3
"""`healthetl mcp`'s latency over stdio, as two clients see it.

  mcp_bench.py BINARY STORE LAST TIMEFILE [CALLS]

Calls `daily` over the year ending LAST for step_count and heart_rate and `insights` over the 90
days ending LAST, CALLS times each (default 50) after one first call each timed on its own:
  - "round trip": JSON-RPC written by hand on the server's pipes, the answer read and parsed
    with json.loads: the server's own time; the server runs under /usr/bin/time -v (TIMEFILE);
  - "sdk client": the official MCP Python SDK's call_tool, which also validates each answer
    against the tool's output schema: what a validating client adds.
Prints one JSON object: per client and call, the first call's and the p50, p95 and max
milliseconds of the rest, and the days answered.
"""
import asyncio
import datetime
import json
import subprocess
import sys
import time

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def summary(timings, days):
    rest = timings[1:]
    return {"first_ms": round(timings[0], 1), "p50_ms": round(percentile(rest, 0.5), 1),
            "p95_ms": round(percentile(rest, 0.95), 1), "max_ms": round(max(rest), 1), "calls": len(rest),
            "days": days}


def cases(last):
    end = datetime.date.fromisoformat(last)
    year = {"from": str(end - datetime.timedelta(days=364)), "to": last}
    quarter = {"from": str(end - datetime.timedelta(days=89)), "to": last}
    return [("daily step_count, 365 days", "daily", {"metric": "step_count", **year}),
            ("daily heart_rate, 365 days", "daily", {"metric": "heart_rate", **year}),
            ("insights, 90 days", "insights", quarter)]


def days_in(structured):
    days = structured.get("days", [])
    return sum(len(v) for v in days.values()) if isinstance(days, dict) else len(days)


def round_trip(binary, store, last, timefile, calls):
    process = subprocess.Popen(["/usr/bin/time", "-v", "-o", timefile, binary, "--store", store, "mcp"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    counter = [0]

    def rpc(method, params):
        counter[0] += 1
        process.stdin.write(json.dumps({"jsonrpc": "2.0", "id": counter[0], "method": method, "params": params}) + "\n")
        process.stdin.flush()
        while True:
            message = json.loads(process.stdout.readline())
            if message.get("id") == counter[0]:
                return message

    rpc("initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}})
    process.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")
    figures = {}
    for name, tool, arguments in cases(last):
        timings = []
        for _ in range(calls + 1):
            started = time.perf_counter()
            answer = rpc("tools/call", {"name": tool, "arguments": arguments})
            timings.append((time.perf_counter() - started) * 1000)
            if "error" in answer or answer["result"].get("isError"):
                raise SystemExit(f"{name}: {answer}")
        figures[name] = summary(timings, days_in(answer["result"]["structuredContent"]))
    process.stdin.close()
    process.wait(timeout=60)
    return figures


async def sdk_client(binary, store, last, calls):
    figures = {}
    async with stdio_client(StdioServerParameters(command=binary, args=["--store", store, "mcp"])) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            for name, tool, arguments in cases(last):
                timings = []
                for _ in range(calls + 1):
                    started = time.perf_counter()
                    result = await session.call_tool(tool, arguments)
                    timings.append((time.perf_counter() - started) * 1000)
                    if result.isError:
                        raise SystemExit(f"{name}: {result.content[0].text}")
                figures[name] = summary(timings, days_in(result.structuredContent))
    return figures


if __name__ == "__main__":
    binary, store, last, timefile = sys.argv[1:5]
    calls = int(sys.argv[5]) if len(sys.argv) > 5 else 50
    print(json.dumps({"round trip": round_trip(binary, store, last, timefile, calls),
                      "sdk client": asyncio.run(sdk_client(binary, store, last, calls))}))
