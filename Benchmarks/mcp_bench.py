#!/usr/bin/env python3
"""`healthetl mcp`'s latency as an MCP client sees it (the official Python SDK over stdio).

  mcp_bench.py BINARY STORE LAST TIMEFILE [CALLS]

Starts the server under /usr/bin/time -v (its report goes to TIMEFILE), then calls `daily` over
the year ending LAST for step_count and heart_rate and `insights` over the 90 days ending LAST,
CALLS times each (default 50), after one first call each that is timed on its own. Prints one
JSON object: per call, the first call's and the p50, p95 and max milliseconds of the rest.
"""
import asyncio
import datetime
import json
import sys
import time

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


async def main(binary, store, last, timefile, calls):
    end = datetime.date.fromisoformat(last)
    year = {"from": str(end - datetime.timedelta(days=364)), "to": last}
    quarter = {"from": str(end - datetime.timedelta(days=89)), "to": last}
    cases = [
        ("daily step_count, 365 days", "daily", {"metric": "step_count", **year}),
        ("daily heart_rate, 365 days", "daily", {"metric": "heart_rate", **year}),
        ("insights, 90 days", "insights", quarter),
    ]
    parameters = StdioServerParameters(
        command="/usr/bin/time", args=["-v", "-o", timefile, binary, "--store", store, "mcp"])
    figures = {}
    async with stdio_client(parameters) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            for name, tool, arguments in cases:
                timings = []
                for _ in range(calls + 1):
                    started = time.perf_counter()
                    result = await session.call_tool(tool, arguments)
                    timings.append((time.perf_counter() - started) * 1000)
                    if result.isError:
                        raise SystemExit(f"{name}: {result.content[0].text}")
                rest = timings[1:]
                days = len(result.structuredContent.get("days", []))
                figures[name] = {
                    "first_ms": round(timings[0], 1), "p50_ms": round(percentile(rest, 0.5), 1),
                    "p95_ms": round(percentile(rest, 0.95), 1), "max_ms": round(max(rest), 1), "calls": len(rest),
                    "days": days,
                }
    print(json.dumps(figures))


if __name__ == "__main__":
    arguments = sys.argv[1:]
    asyncio.run(main(*arguments[:4], int(arguments[4]) if len(arguments) > 4 else 50))
