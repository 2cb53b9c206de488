// swift-tools-version: 6.1
import PackageDescription

let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "healthetl",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "healthetl", targets: ["healthetl"]),
        .library(name: "HealthETLCore", targets: ["HealthETLCore"]),
        .library(name: "HealthETLStore", targets: ["HealthETLStore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk", from: "0.12.1"),
    ],
    targets: [
        // C libraries, taken from the system so the distribution's security fixes apply.
        .systemLibrary(
            name: "CSQLite", path: "Sources/CSQLite",
            providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(
            name: "CLibXML2", path: "Sources/CLibXML2", pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(
            name: "CZlib", path: "Sources/CZlib",
            providers: [.apt(["zlib1g-dev"])]),
        // Intel's ISA-L: its inflate reads a ZIP entry three times as fast as zlib's, and its
        // CRC-32 is zlib's, computed with carry-less multiplication.
        .systemLibrary(
            name: "CISAL", path: "Sources/CISAL", pkgConfig: "libisal",
            providers: [.apt(["libisal-dev"])]),
        .systemLibrary(
            name: "CZstd", path: "Sources/CZstd", pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"])]),
        // OpenSSL's libcrypto, for the SHA-256 of every content id (see its shim.h).
        .systemLibrary(
            name: "CLibCrypto", path: "Sources/CLibCrypto", pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]),
        // jemalloc, the executable's allocator: glibc's stalled on frees of memory another thread
        // allocated, which is how every record travels from the reader to the writer.
        .systemLibrary(
            name: "CJemalloc", path: "Sources/CJemalloc", pkgConfig: "jemalloc",
            providers: [.apt(["libjemalloc-dev"])]),
        // Its settings (`malloc_conf`), linked into the executable only.
        .target(name: "CJemallocSettings", path: "Sources/CJemallocSettings"),

        // The model, catalog, normalizer and plugin API: pure code, no files, no network.
        .target(
            name: "HealthETLCore",
            dependencies: ["CLibCrypto"],
            resources: [.copy("Resources/metric-catalog.json"), .copy("Resources/source-types.json")],
            swiftSettings: strict),

        // The one SQLite layer: connection, statements, the PRAGMA profile, named migrations,
        // private files and the soundness check on open. The client store and the collector use it.
        .target(
            name: "HealthETLSQLite",
            dependencies: ["HealthETLCore", "CSQLite"],
            swiftSettings: strict),

        // The collector API's types (batch, deletion, response, projections, errors) with the
        // batch's canonical JSON and its digest: shared by the collector sink and the collector.
        .target(
            name: "HealthETLWire",
            dependencies: ["HealthETLCore", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strict),

        // The ZIP format, read and written: its records (signatures, header layouts, ZIP64 extra
        // fields, DOS time), the hostile-input-proof readers (in place, and front to back for
        // archives inside archives), the gzip stream and the streaming writer. Shared by the
        // plugins that read and write exports, the push receiver, and the tests' fixture builders.
        .target(
            name: "HealthETLZip",
            dependencies: ["CZlib", "CISAL"],
            swiftSettings: strict),

        // The client store: the atomic batch writer, cursors, the upload queue, reports.
        .target(
            name: "HealthETLStore",
            dependencies: ["HealthETLCore", "HealthETLSQLite"],
            swiftSettings: strict),

        // Drives a source adapter into the store: normalize, batch, commit with cursors, supersede.
        .target(
            name: "HealthETLPipeline",
            dependencies: ["HealthETLCore", "HealthETLStore", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strict),

        // Source adapter `apple_health`: export.zip / export.xml / an unzipped export directory.
        .target(
            name: "AppleHealth",
            dependencies: ["HealthETLCore", "HealthETLZip", "CLibXML2"],
            path: "Plugins/AppleHealth",
            swiftSettings: strict),

        // Source adapter `synthetic`: deterministic simulated people, as live lanes or as exports.
        .target(
            name: "Synthetic",
            dependencies: ["HealthETLCore", "HealthETLSQLite", "HealthETLZip", "HealthETLFIT"],
            path: "Plugins/Synthetic",
            resources: [.copy("HealthConnectExport/health-connect-v14.sql")],
            swiftSettings: strict),

        // Source adapter `health_connect`: Android Health Connect exports, a zip holding a copy
        // of the phone's SQLite database.
        .target(
            name: "HealthConnect",
            dependencies: ["HealthETLCore", "HealthETLSQLite", "HealthETLZip"],
            path: "Plugins/HealthConnect",
            swiftSettings: strict),

        // Source adapter `health_auto_export`: Health Auto Export's JSON files (a file, a folder,
        // a zip) and the bodies it pushes to `healthetl receive`.
        .target(
            name: "HealthAutoExport",
            dependencies: ["HealthETLCore", "HealthETLZip"],
            path: "Plugins/HealthAutoExport",
            swiftSettings: strict),

        // The FIT format's base types and CRC, from the published protocol: shared by the `fit`
        // source's decoder and the generator's encoder.
        .target(
            name: "HealthETLFIT",
            swiftSettings: strict),

        // Source `fit`: FIT files of sports watches and bike computers, and the archives they come
        // in; its decoder is written here from the published protocol and profile.
        .target(
            name: "FIT",
            dependencies: ["HealthETLCore", "HealthETLZip", "HealthETLFIT"],
            path: "Plugins/FIT",
            resources: [.copy("Resources/fit-profile-names.json")],
            swiftSettings: strict),

        // Sink `collector`: ships zstd JSON batches to a healthetl collector and reads its projections.
        .target(
            name: "CollectorSink",
            dependencies: [
                "HealthETLCore", "HealthETLWire", "CZstd",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Plugins/CollectorSink",
            swiftSettings: strict),

        // The collector's storage protocol, between the HTTP server and the engines: what a batch,
        // a projection read or a refresh asks of a database, and the projection arithmetic both
        // engines share (which days and samples a refresh reads; the core's calculators do the rest).
        .target(
            name: "HealthETLCollectorStorage",
            dependencies: ["HealthETLCore", "HealthETLWire"],
            swiftSettings: strict),

        // The collector's embedded engine: `CollectorStorage` on one SQLite database.
        .target(
            name: "HealthETLCollectorSQLite",
            dependencies: ["HealthETLCore", "HealthETLWire", "HealthETLSQLite", "HealthETLCollectorStorage"],
            swiftSettings: strict),

        // The collector's shared engine: `CollectorStorage` on PostgreSQL, for several collectors.
        .target(
            name: "HealthETLCollectorPostgres",
            dependencies: [
                "HealthETLCore", "HealthETLWire", "HealthETLCollectorStorage",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),

        // The HTTP servers: the collector's API (`healthetl serve`) over either engine, the push
        // receiver (`healthetl receive`) that Health Auto Export posts to, and the metrics listener.
        .target(
            name: "HealthETLServer",
            dependencies: [
                "HealthETLCore", "HealthETLWire", "HealthETLCollectorStorage", "HealthETLCollectorSQLite",
                "HealthETLCollectorPostgres", "HealthETLZip", "CZstd", "HealthETLMCP",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "MCP", package: "swift-sdk"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: strict),

        // The ways data goes out again: CSV, NDJSON and FHIR R4 writers that stream samples as
        // bytes, the daily figures' formats, and the self-contained HTML report with its SVG charts.
        .target(
            name: "HealthETLOutput",
            dependencies: ["HealthETLCore"],
            swiftSettings: strict),

        // The read-only Model Context Protocol server: tools over a reader of one person's data
        // (the store's, or one user's on the collector), the catalog as resources, two prompts.
        .target(
            name: "HealthETLMCP",
            dependencies: ["HealthETLCore", "HealthETLWire", .product(name: "MCP", package: "swift-sdk")],
            swiftSettings: strict),

        // The plugin registry, the store's config file with one section per plugin, and the
        // commands' library entry points (uploads, tier 1) the thin executable calls. No HTTP
        // server and no PostgreSQL: a library caller links only the client side.
        .target(
            name: "HealthETLRuntime",
            dependencies: [
                "HealthETLCore", "HealthETLWire", "HealthETLSQLite", "HealthETLStore", "HealthETLPipeline",
                "AppleHealth",
                "HealthConnect",
                "HealthAutoExport", "HealthETLOutput", "HealthETLZip", "FIT",
                "Synthetic",
                "CollectorSink", "HealthETLMCP",
            ],
            swiftSettings: strict),

        // The thin executable: argument parsing and one library call per command.
        .executableTarget(
            name: "healthetl",
            dependencies: [
                "HealthETLCore", "HealthETLWire", "HealthETLStore", "HealthETLPipeline", "HealthETLServer",
                "HealthETLCollectorStorage", "HealthETLRuntime", "HealthETLSQLite", "HealthETLMCP", "CJemalloc",
                "CJemallocSettings",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: strict),

        // `make bench`: throughput of the import path's pieces.
        .executableTarget(
            name: "healthetl-bench",
            dependencies: ["HealthETLCore", "HealthETLStore", "Synthetic", "AppleHealth", "FIT"],
            path: "Benchmarks/HealthETLBenchmarks",
            swiftSettings: strict),

        // `make bench`: collector ingest through HTTP (Benchmarks/ingest-bench.sh starts the server).
        .executableTarget(
            name: "healthetl-ingest-bench",
            dependencies: [
                "HealthETLCore", "HealthETLWire", "Synthetic", "HealthETLServer", "CollectorSink",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            path: "Benchmarks/IngestBench",
            swiftSettings: strict),

        // `make bench`: the change feed's followers, catch-up and 304s (Benchmarks/feed-bench.sh starts the server).
        .executableTarget(
            name: "healthetl-feed-bench",
            dependencies: ["HealthETLCore", "HealthETLStore", "HealthETLPipeline", "CollectorSink"],
            path: "Benchmarks/FeedBench",
            swiftSettings: strict),

        // Fixture builders and helpers shared by the test targets.
        .target(
            name: "HealthETLTestSupport",
            dependencies: ["HealthETLCore", "HealthETLSQLite", "HealthETLZip"],
            path: "Tests/HealthETLTestSupport",
            swiftSettings: strict),

        .testTarget(
            name: "HealthETLCoreTests",
            dependencies: ["HealthETLCore", "HealthETLTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "HealthETLRuntimeTests",
            dependencies: [
                "HealthETLCore", "HealthETLPipeline", "HealthETLStore", "HealthETLRuntime", "HealthETLTestSupport",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "HealthETLMCPTests",
            dependencies: ["HealthETLCore", "HealthETLMCP", .product(name: "MCP", package: "swift-sdk")],
            swiftSettings: strict),
        .testTarget(
            name: "HealthETLOutputTests",
            dependencies: ["HealthETLCore", "HealthETLOutput"],
            swiftSettings: strict),
        .testTarget(
            name: "HealthETLWireTests",
            dependencies: ["HealthETLCore", "HealthETLWire", "HealthETLTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "HealthETLStoreTests",
            dependencies: [
                "HealthETLCore", "HealthETLPipeline", "HealthETLStore", "HealthETLSQLite", "HealthETLTestSupport",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "AppleHealthTests",
            dependencies: ["HealthETLCore", "AppleHealth", "HealthETLZip", "HealthETLTestSupport", "CZlib"],
            swiftSettings: strict),
        .testTarget(
            name: "HealthConnectTests",
            dependencies: [
                "HealthETLCore",
                "HealthConnect", "Synthetic", "HealthETLSQLite", "HealthETLStore", "HealthETLPipeline",
                "HealthETLRuntime", "HealthETLZip", "HealthETLTestSupport",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "HealthAutoExportTests",
            dependencies: ["HealthETLCore", "HealthAutoExport", "Synthetic", "HealthETLTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "FITTests",
            dependencies: [
                "HealthETLCore", "FIT", "HealthETLFIT", "Synthetic", "HealthETLZip", "HealthETLTestSupport",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "SyntheticTests",
            dependencies: ["HealthETLCore", "Synthetic", "HealthETLZip", "HealthETLTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "CollectorTests",
            dependencies: [
                "HealthETLCore",
                "HealthETLServer", "HealthETLWire", "HealthETLSQLite", "HealthETLTestSupport", "CollectorSink",
                "HealthETLCollectorStorage", "HealthETLCollectorSQLite", "HealthETLCollectorPostgres",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "CollectorSinkTests",
            dependencies: [
                "HealthETLCore",
                "CollectorSink", "HealthETLServer", "HealthETLWire", "HealthETLSQLite", "HealthETLTestSupport",
                "HealthETLCollectorSQLite",
                "CZstd",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "UploadTests",
            dependencies: [
                "HealthETLCore",
                "HealthETLPipeline", "HealthETLStore", "HealthETLSQLite", "HealthETLWire", "CollectorSink",
                "HealthETLServer", "HealthETLCollectorSQLite", "HealthETLTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "HealthETLEndToEndTests",
            dependencies: [
                "HealthETLCollectorSQLite", "HealthETLCore", "HealthETLSQLite", "HealthETLStore",
                "HealthETLTestSupport",
            ],
            swiftSettings: strict),
    ]
)
