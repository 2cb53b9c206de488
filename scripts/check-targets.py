#!/usr/bin/env python3
"""The layering rules Package.swift's comments promise, checked against every Swift file.

1. A target declares every module it imports (nothing arrives by accident through another target).
2. Only HealthETLSQLite imports the SQLite C library.
3. A plugin imports only the plugin API (HealthETLCore), the shared format targets
   (HealthETLZip, HealthETLWire, HealthETLSQLite), C shims and outside packages: never the store,
   the pipeline, the runtime, the servers or another plugin.
4. HealthETLRuntime, and so every library caller, links no HTTP server and no PostgreSQL code.
"""
import glob
import re
import sys

SYSTEM = {"Foundation", "FoundationEssentials", "FoundationNetworking", "Dispatch", "Glibc", "Musl",
          "Darwin", "Synchronization", "Testing", "XCTest", "PackageDescription"}
PLUGIN_MAY_IMPORT = {"HealthETLCore", "HealthETLZip", "HealthETLFIT", "HealthETLWire", "HealthETLSQLite",
                     "CLibXML2", "CZstd", "CZlib"}
SERVER_SIDE = {"HealthETLServer", "HealthETLCollectorStorage", "HealthETLCollectorSQLite",
               "HealthETLCollectorPostgres", "Hummingbird", "HummingbirdCore", "PostgresNIO"}


def targets(manifest):
    # Declarations only (at the targets list's indent): a conditional dependency is a `.target(` too.
    parts = re.split(r"\n {8}\.(target|executableTarget|testTarget|systemLibrary)\(", manifest)
    for kind, body in zip(parts[1::2], parts[2::2]):
        name = re.search(r'name:\s*"([^"]+)"', body).group(1)
        path = re.search(r'path:\s*"([^"]+)"', body)
        path = path.group(1) if path else ("Tests/" if kind == "testTarget" else "Sources/") + name
        listed = re.search(r"dependencies:\s*\[(.*?)\]\s*,\s*(path|resources|swiftSettings|exclude)", body, re.S)
        text = listed.group(1) if listed else ""
        products = set(re.findall(r'\.product\(\s*name:\s*"([^"]+)"', text))
        plain = set(re.findall(r'(?<![:\w])\s*"([A-Za-z0-9_]+)"', re.sub(r"\.product\([^)]*\)", "", text)))
        yield name, kind, path, plain | products, products


def imports(path):
    found = set()
    for file in glob.glob(path + "/**/*.swift", recursive=True):
        with open(file) as source:
            for line in source:
                match = re.match(r"(?:@testable |@_spi\(\w+\) )?import (?:struct |enum |class |func )?(\w+)", line)
                if match:
                    found.add(match.group(1))
    return found


def main():
    with open("Package.swift") as manifest:
        graph = {name: (kind, path, deps, products) for name, kind, path, deps, products in targets(manifest.read())}
    problems = []
    for name, (kind, path, deps, _) in sorted(graph.items()):
        if kind == "systemLibrary":
            continue
        used = imports(path) - SYSTEM - {name}
        for module in sorted(used - deps):
            problems.append(f"{name} imports {module} without declaring it in Package.swift")
        if "CSQLite" in used and name != "HealthETLSQLite":
            problems.append(f"{name} imports CSQLite: only HealthETLSQLite talks to SQLite's C API")
        if path.startswith("Plugins/"):
            local = {other for other in graph if other not in PLUGIN_MAY_IMPORT}
            for module in sorted(used & local):
                problems.append(f"plugin {name} imports {module}: plugins use the plugin API and shared format targets")

    def closure(name, seen):
        if name in seen or name not in graph:
            return seen
        seen.add(name)
        _, _, deps, products = graph[name]
        seen |= products
        for dep in deps:
            closure(dep, seen)
        return seen

    for module in sorted(closure("HealthETLRuntime", set()) & SERVER_SIDE):
        problems.append(f"HealthETLRuntime depends on {module}: a library caller must not link the servers")
    for problem in problems:
        print("check-targets:", problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
