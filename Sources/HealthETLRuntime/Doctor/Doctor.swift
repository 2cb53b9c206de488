import CollectorSink
import Foundation
import HealthETLCore
import HealthETLStore

/// `healthetl doctor`: checks the store, its files, the disk, the config, the collector and the
/// retry queue, and says for each problem how to fix it. It stores nothing and sends no data:
/// the collector is asked only `GET /v1/healthz` with the token.
public struct Doctor: Sendable {
    public let store: StoreDirectory
    /// `--endpoint` and `--token-file`, over the store's config.
    public let overrides: [String: PluginSettings.Value]
    public let clock: Clock
    /// Beyond this the clocks disagree enough to misdate "recent" data and `Retry-After`.
    public static let tolerableSkewSeconds = 120.0
    /// A batch waiting longer than this means uploads are not running.
    public static let staleQueueSeconds: Int64 = 86_400

    public init(store: StoreDirectory, overrides: [String: PluginSettings.Value], clock: Clock = .system) {
        self.store = store
        self.overrides = overrides
        self.clock = clock
    }

    public func run() async -> [DoctorCheck] {
        var checks = [permissions()]
        guard FileManager.default.fileExists(atPath: store.databasePath) else {
            checks.append(
                .problem(
                    "store", "no store at \(store.path)",
                    fix: "import an export (`healthetl import FILE`), or point --store at your store"))
            return checks
        }
        let opened = openStore()
        checks += opened.checks
        checks.append(disk())
        let configuration = configurationCheck()
        checks.append(configuration.check)
        if configuration.loaded { checks += await collector() }
        if let store = opened.store { checks.append(queue(store)) }
        return checks
    }

    // MARK: The store

    /// The store directory 0700, every file in it 0600 (the store refuses to open otherwise).
    func permissions() -> DoctorCheck {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: store.path) else {
            return .skipped("file modes", "no store directory at \(store.path)")
        }
        let loose = ([store.path] + entries.sorted().map { store.path + "/" + $0 }).compactMap { path in
            StoreDirectory.openToOthers(path).map { "chmod \($0.isDirectory ? "700" : "600") \(path)" }
        }
        guard loose.isEmpty else {
            return .problem(
                "file modes", "others can read \(loose.count) of the store's files", fix: loose.joined(separator: "; "))
        }
        return .ok("file modes", "the store is 0700 and its files 0600")
    }

    func openStore() -> (store: Store?, checks: [DoctorCheck]) {
        let opened: Store
        do {
            opened = try Store(directory: store, clock: clock)
        } catch {
            return (
                nil,
                [
                    .problem(
                        "store", "\(error)",
                        fix: "restore the store from a backup (`healthetl backup` makes one), or move it aside")
                ]
            )
        }
        var checks: [DoctorCheck] = []
        do {
            let findings = try opened.quickCheck()
            checks.append(
                findings == ["ok"]
                    ? .ok("store", "\(store.databasePath) opens and passes PRAGMA quick_check")
                    : .problem(
                        "store", "PRAGMA quick_check: \(findings.prefix(3).joined(separator: "; "))",
                        fix:
                            "the file is damaged: restore it from a backup; or `healthetl export` what still reads, then move the store aside"
                    ))
        } catch {
            checks.append(.problem("store", "PRAGMA quick_check failed: \(error)", fix: "restore it from a backup"))
        }
        let applied = (try? opened.appliedMigrations().count) ?? 0
        checks.append(
            .ok("schema", "\(applied) of \(Store.knownMigrationCount) migrations applied (this healthetl's schema)"))
        return (opened, checks)
    }

    /// Free space against the store's size: a backup, or SQLite's own rewrite of a large
    /// transaction, needs about as much again.
    func disk() -> DoctorCheck {
        let size = ([""] + StoreDirectory.sidecarSuffixes).reduce(Int64(0)) { total, suffix in
            let attributes = try? FileManager.default.attributesOfItem(atPath: store.databasePath + suffix)
            return total + ((attributes?[.size] as? NSNumber)?.int64Value ?? 0)
        }
        guard let attributes = try? FileManager.default.attributesOfFileSystem(forPath: store.path),
            let free = (attributes[.systemFreeSize] as? NSNumber)?.int64Value
        else { return .skipped("disk", "the free space of \(store.path) cannot be read") }
        let detail = "\(Self.mebibytes(free)) free; the store is \(Self.mebibytes(size))"
        guard free >= size else {
            return .problem(
                "disk", detail, fix: "free space on that disk: a backup or a large import needs as much as the store")
        }
        return .ok("disk", detail)
    }

    func configurationCheck() -> (check: DoctorCheck, loaded: Bool) {
        do {
            _ = try StoreConfiguration.load(store: store.path)
            return (.ok("config", "\(StoreConfiguration.path(store: store.path)) reads"), true)
        } catch {
            return (
                .problem("config", error.description, fix: "correct the file, or move it aside to start afresh"), false
            )
        }
    }

    func queue(_ store: Store) -> DoctorCheck {
        guard let counts = try? store.uploadCounts(),
            let waiting = try? store.uploads(in: [.pending, .inFlight, .failed], limit: 1)
        else { return .skipped("retry queue", "the upload queue cannot be read") }
        let dead = counts[.dead] ?? 0
        let waitingCount = (counts[.pending] ?? 0) + (counts[.inFlight] ?? 0) + (counts[.failed] ?? 0)
        if dead > 0 {
            return .problem(
                "retry queue", "\(dead) dead batch\(dead == 1 ? "" : "es"): the collector refused them for good",
                fix: "see why with `healthetl queue list`, then `healthetl queue retry` once fixed")
        }
        if let oldest = waiting.first {
            let age = (clock.now().millisecondsSinceEpoch - oldest.created.millisecondsSinceEpoch) / 1000
            let detail = "\(waitingCount) waiting, the oldest since \(oldest.created)"
            if age > Self.staleQueueSeconds {
                return .problem(
                    "retry queue", detail,
                    fix: "uploads have not run for a day: run `healthetl upload`, and check its timer or cron job")
            }
            return .ok("retry queue", detail)
        }
        return .ok("retry queue", "empty: every batch delivered")
    }

    // MARK: The collector

    /// The token file's mode, then the endpoint: reachable, TLS, the token accepted, the clock.
    func collector() async -> [DoctorCheck] {
        let choice: SinkChoice
        do {
            choice = try SinkChoice.resolve(store: store.path, overrides: overrides)
        } catch {
            return [.problem("collector", "\(error)", fix: "correct the collector section of the config")]
        }
        // Any token file given is checked, with or without an endpoint to use it on.
        let tokenFile = (try? choice.settings.text("token_file")) ?? nil
        let tokenCheck = tokenFile.map(Self.tokenFileCheck)
        guard (try? choice.settings.text("endpoint")) ?? nil != nil else {
            return (tokenCheck.map { [$0] } ?? []) + [
                .skipped(
                    "collector", "no collector configured (give --endpoint and --token-file, or save them with upload)")
            ]
        }
        if let tokenCheck, tokenCheck.verdict != .ok { return [tokenCheck] }
        let sink: CollectorSink
        do {
            guard let made = try choice.make() as? CollectorSink else {
                return [.skipped("collector", "the sink is not a healthetl collector")]
            }
            sink = made
        } catch {
            return [.problem("collector", "\(error)", fix: "see the message: the token file or the endpoint")]
        }
        var checks = tokenCheck.map { [$0] } ?? []
        checks += await probe(sink)
        try? await sink.shutdown()
        return checks
    }

    /// A token file readable by its owner only.
    static func tokenFileCheck(_ path: String) -> DoctorCheck {
        guard FileManager.default.isReadableFile(atPath: path) else {
            return .problem("token file", "\(path) cannot be read", fix: "give the path of your token file")
        }
        if let mode = StoreDirectory.openToOthers(path)?.mode {
            return .problem(
                "token file", "\(path) has mode \(String(mode & 0o777, radix: 8)): others can read the token",
                fix: "chmod 600 \(path)")
        }
        return .ok("token file", "readable by you only")
    }

    /// The collector reached, the token accepted, and the clocks compared.
    func probe(_ sink: CollectorSink) async -> [DoctorCheck] {
        var checks: [DoctorCheck] = []
        let probe: CollectorProbe
        do {
            probe = try await sink.probe()
        } catch {
            switch error {
            case .unauthorized(let reason):
                checks.append(
                    .problem(
                        "collector", reason,
                        fix: "the collector does not know this token: check the token file against its tokens file"))
            case .retryable(let reason, _), .permanent(let reason):
                checks.append(
                    .problem(
                        "collector", "\(sink.configuration.endpoint): \(reason)",
                        fix: "check that the collector runs and the URL, port and certificate are right"))
            }
            return checks
        }
        let milliseconds = Int((probe.roundTripSeconds * 1000).rounded())
        checks.append(
            .ok(
                "collector",
                "\(sink.configuration.endpoint) answers \(probe.usesTLS ? "over TLS" : "on this machine, without TLS") in \(milliseconds) ms and accepts the token"
            ))
        guard let skew = probe.clockSkewSeconds else {
            checks.append(.skipped("clock", "the collector sent no Date header"))
            return checks
        }
        let detail =
            "the collector's clock is \(Int(abs(skew).rounded())) s \(skew >= 0 ? "ahead of" : "behind") this machine's"
        checks.append(
            abs(skew) > Self.tolerableSkewSeconds
                ? .problem(
                    "clock", detail,
                    fix:
                        "set both clocks by NTP (`timedatectl set-ntp true`): recent data and retry times depend on them"
                )
                : .ok("clock", detail))
        return checks
    }

    // MARK: Helpers

    static func mebibytes(_ bytes: Int64) -> String {
        bytes >= 1 << 30
            ? String(format: "%.1f GiB", Double(bytes) / Double(1 << 30))
            : String(format: "%.1f MiB", Double(bytes) / Double(1 << 20))
    }
}
