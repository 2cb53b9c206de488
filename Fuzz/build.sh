#!/usr/bin/env bash
# Builds the libFuzzer targets under Fuzz/ into $FUZZ_BUILD_DIR/bin (default .build-fuzz/bin).
#
# The library targets a fuzzer reads through are built by SwiftPM in their own scratch path,
# instrumented for libFuzzer and AddressSanitizer and with testing enabled (the harnesses reach
# internal types with `@testable import`), so the main .build is never touched. Each harness
# (Fuzz/<name>/*.swift, plus the Fuzz/Support files it names) is then compiled by swiftc with
# `-sanitize=fuzzer,address` and linked with the object files of the modules it needs:
# libFuzzer brings `main`, the harness brings `LLVMFuzzerTestOneInput`. The fuzz targets are
# not in Package.swift, so `swift build` and `make test`'s build never compile them.
#
#   Fuzz/build.sh [name ...]     all targets, or the ones named
#
# FUZZ_LOCK=/path/to/lockfile makes every compile hold that lock (flock), for machines where
# builds take turns. Needs Linux: Swift's toolchains for Linux ship libFuzzer, Xcode's do not.
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD_DIR=${FUZZ_BUILD_DIR:-.build-fuzz}
PRODUCTS=$BUILD_DIR/release
BIN=$BUILD_DIR/bin
SANITIZE=fuzzer,address

# name | library targets SwiftPM builds | modules linked | sources beyond Fuzz/<name>/*.swift
TARGETS=(
    "xml|AppleHealth|AppleHealth HealthETLZip HealthETLCore|Fuzz/Support/FuzzChunks.swift"
    "zip|HealthETLZip|HealthETLZip|Fuzz/Support/FuzzScratch.swift"
    "hae-json|HealthAutoExport|HealthAutoExport HealthETLZip HealthETLCore|Fuzz/Support/FuzzChunks.swift"
    "hae-document|HealthAutoExport|HealthAutoExport HealthETLZip HealthETLCore|Fuzz/Support/FuzzChunks.swift Fuzz/Support/NormalizingHandler.swift"
    "wire-batch|HealthETLWire|HealthETLWire HealthETLCore CRYPTO|"
    "sse||none|Fuzz/Support/FuzzChunks.swift Plugins/CollectorSink/ServerSentEvents.swift"
    "health-connect|HealthConnect|HealthConnect HealthETLSQLite HealthETLZip HealthETLCore|Fuzz/Support/FuzzScratch.swift Fuzz/Support/NormalizingHandler.swift"
    "health-connect-values|HealthConnect|HealthConnect HealthETLSQLite HealthETLZip HealthETLCore|Fuzz/Support/FuzzScratch.swift Fuzz/Support/NormalizingHandler.swift"
    "fit|FIT|FIT HealthETLFIT HealthETLZip HealthETLCore|Fuzz/Support/FuzzChunks.swift Fuzz/Support/NormalizingHandler.swift"
)
# swift-crypto's modules, which HealthETLWire needs (HealthETLCore hashes with the system's libcrypto).
CRYPTO="Crypto CryptoBoringWrapper CCryptoBoringSSL CCryptoBoringSSLShims"

if [ "$(uname -s)" != Linux ]; then
    echo "Fuzz/build.sh: libFuzzer comes with Swift's Linux toolchains only; nothing built on $(uname -s)." >&2
    exit 2
fi

locked() {
    if [ -n "${FUZZ_LOCK:-}" ]; then flock "$FUZZ_LOCK" "$@"; else "$@"; fi
}

SELECTED=("$@")
wanted() {
    [ ${#SELECTED[@]} -eq 0 ] && return 0
    for want in "${SELECTED[@]}"; do [ "$want" = "$1" ] && return 0; done
    return 1
}

# The library targets, once each, in one scratch path.
libraries=()
for row in "${TARGETS[@]}"; do
    IFS='|' read -r name library _ _ <<<"$row"
    if wanted "$name" && [ -n "$library" ] \
        && [[ " ${libraries[*]:-} " != *" $library "* ]]; then
        libraries+=("$library")
    fi
done
for library in "${libraries[@]}"; do
    echo "Fuzz/build.sh: building $library (release, -sanitize=$SANITIZE) in $BUILD_DIR"
    # (A dependency's stray CMakeLists.txt warnings are left out.)
    if ! locked swift build --scratch-path "$BUILD_DIR" -c release \
        -Xswiftc -sanitize=$SANITIZE -Xswiftc -enable-testing --target "$library" 2>&1 \
        | { grep -v -e "found 1 file(s) which are unhandled" -e "/CMakeLists.txt$" || true; }; then
        echo "Fuzz/build.sh: building $library failed" >&2
        exit 1
    fi
done

# Every C module a harness may reach through the Swift modules it imports.
module_maps=()
for map in Sources/C*/module.modulemap "$BUILD_DIR"/checkouts/swift-crypto/Sources/CCryptoBoringSSL*/include/module.modulemap; do
    [ -f "$map" ] && module_maps+=(-Xcc "-fmodule-map-file=$map")
done
include_dirs=()
for dir in $(pkg-config --cflags-only-I libxml-2.0 2>/dev/null || echo -I/usr/include/libxml2); do
    include_dirs+=(-Xcc "$dir")
done

mkdir -p "$BIN"
for row in "${TARGETS[@]}"; do
    IFS='|' read -r name _ modules extra <<<"$row"
    wanted "$name" || continue
    objects=()
    for module in ${modules//CRYPTO/$CRYPTO}; do
        [ "$module" = none ] && continue
        [ -d "$PRODUCTS/$module.build" ] || { echo "Fuzz/build.sh: $module was not built" >&2; exit 1; }
        # A Swift module's objects are the ones its output file map names now (a source renamed or
        # removed leaves its old object behind); a C module's are all there are.
        map=$PRODUCTS/$module.build/output-file-map.json
        if [ -f "$map" ]; then
            listed=$(grep -o '"object": "[^"]*"' "$map" | sed 's/^"object": "//; s/"$//')
        else
            listed=$(find "$PRODUCTS/$module.build" -name '*.o')
        fi
        while IFS= read -r object; do [ -f "$object" ] && objects+=("$object"); done <<<"$listed"
    done
    # shellcheck disable=SC2206 # the extra sources are plain paths without spaces
    sources=(Fuzz/"$name"/*.swift $extra)
    binary=$BIN/$name
    # Relinked only when a source or an object is newer than the fuzzer.
    if [ -x "$binary" ] && [ -z "$(find "${sources[@]}" "${objects[@]}" -newer "$binary" -print -quit)" ]; then
        echo "Fuzz/build.sh: $binary is up to date"
        continue
    fi
    echo "Fuzz/build.sh: linking $binary"
    # ld.gold warns once per AddressSanitizer helper it cannot export; nothing is wrong.
    if ! locked swiftc -O -swift-version 6 -parse-as-library -sanitize=$SANITIZE -module-name "Fuzz_${name//-/_}" \
        -I "$PRODUCTS/Modules" "${module_maps[@]}" "${include_dirs[@]}" \
        "${sources[@]}" "${objects[@]}" -o "$binary" 2>&1 | { grep -v "Cannot export local symbol" || true; }; then
        echo "Fuzz/build.sh: building $name failed" >&2
        exit 1
    fi
done
