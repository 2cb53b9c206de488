import Foundation
import Testing

/// One source priority: the config file's `projections.source_priority` reaches the collector
/// with `upload`, so `projections` (the collector's) and `projections --local` agree, before and
/// after the priority changes.
extension UploadCommandTests {
    /// `projections --json` (or with `--local`) rows, by "metric day" and by night.
    func projections(store: String, local: Bool) throws -> (
        days: [String: [String: Any]], nights: [String: [String: Any]]
    ) {
        let result = try healthetl(
            ["--store", store, "projections"] + (local ? ["--local"] : []) + [
                "--from", "2026-01-16", "--to", "2026-01-22", "--json",
            ])
        #expect(result.exitCode == 0, "\(result.standardError)")
        let listing = json(result)
        let days = (listing["days"] as? [[String: Any]] ?? []).map {
            ("\($0["metric"] ?? "") \($0["day"] ?? "")", $0)
        }
        let nights = (listing["nights"] as? [[String: Any]] ?? []).map { ("\($0["night"] ?? "")", $0) }
        return (
            Dictionary(days, uniquingKeysWith: { first, _ in first }),
            Dictionary(nights, uniquingKeysWith: { first, _ in first })
        )
    }

    /// What differs between the collector's projections and the local ones, in words.
    func differences(store: String) throws -> [String] {
        let fetched = try projections(store: store, local: false)
        let computed = try projections(store: store, local: true)
        var found: [String] = []
        if Set(fetched.days.keys) != Set(computed.days.keys) { found.append("the days differ") }
        if Set(fetched.nights.keys) != Set(computed.nights.keys) { found.append("the nights differ") }
        for (key, mine) in computed.days {
            for field in ["sum", "avg", "min", "max", "count"]
            where !Self.close(mine[field], fetched.days[key]?[field]) {
                found.append(
                    "\(key) \(field): local \(mine[field] ?? "nil"), collector \(fetched.days[key]?[field] ?? "nil")"
                )
            }
        }
        for (night, mine) in computed.nights {
            if mine["source"] as? String != fetched.nights[night]?["source"] as? String {
                found.append("night \(night) source")
            }
            for field in ["in_bed_s", "asleep_s", "deep_s", "rem_s", "awake_s"]
            where !Self.close(mine[field], fetched.nights[night]?[field]) {
                found.append("night \(night) \(field)")
            }
        }
        return found
    }

    /// Sets `projections.source_priority` in the store's config.json, keeping its other keys.
    func configure(priority: [String], store: String) throws {
        let path = store + "/config.json"
        var document =
            (FileManager.default.contents(atPath: path)).flatMap {
                try? JSONSerialization.jsonObject(with: $0) as? [String: Any]
            } ?? [:]
        document["projections"] = ["source_priority": priority]
        _ = FileManager.default.createFile(
            atPath: path, contents: try JSONSerialization.data(withJSONObject: document),
            attributes: [.posixPermissions: 0o600])
    }

    @Test func theConfiguredSourcePriorityReachesTheCollectorsProjections() throws {
        let server = try Server(runner: runner, directory: directory)
        defer { server.stop() }
        let store = directory.child("priority")
        let simulated = try healthetl([
            "--store", store, "simulate", "--days", "6", "--seed", "29", "--origin", "2026-01-22", "--json",
        ])
        #expect(simulated.exitCode == 0, "\(simulated.standardError)")
        let token = tokenFile(mode: 0o600)
        let upload = ["--store", store, "upload", "--endpoint", server.url, "--token-file", token, "--json"]

        // No priority configured: nothing to send, and both sides use the default order.
        let first = try healthetl(upload)
        #expect(first.exitCode == 0, "\(first.standardError)")
        #expect(json(first)["source_priority_sent"] as? Bool == false)
        let before = try projections(store: store, local: false)
        #expect(before.days.count > 20 && !before.nights.isEmpty)
        #expect(try differences(store: store).isEmpty)

        // The phone ahead of the watch, and the sleep app ahead of both, on days already computed.
        let local = store + "/healthetl.sqlite"
        let phone = try #require(
            try Self.column("SELECT name FROM sources WHERE name LIKE '%iPhone%'", database: local).first)
        let sleepApp = try #require(
            try Self.column("SELECT name FROM sources WHERE name = 'AutoSleep'", database: local).first)
        try configure(priority: [phone, sleepApp], store: store)
        let second = try healthetl(upload)
        #expect(second.exitCode == 0, "\(second.standardError)")
        #expect(json(second)["source_priority_sent"] as? Bool == true, "\(second.standardOutput)")
        let differing = try differences(store: store)
        #expect(differing.isEmpty, "\(differing.prefix(10))")
        let after = try projections(store: store, local: false)
        #expect(
            after.days.contains { key, day in
                key.hasPrefix("step_count ") && !Self.close(day["sum"], before.days[key]?["sum"])
            })
        #expect(
            after.nights.values.allSatisfy { $0["source"] as? String == sleepApp },
            "\(after.nights.values.map { $0["source"] ?? "" })")
        #expect(after.days.values.allSatisfy { $0["freshness"] as? String == "fresh" })

        // Unchanged: not sent again. Emptied: the default order is sent back.
        let third = try healthetl(upload)
        #expect(json(third)["source_priority_sent"] as? Bool == false)
        try configure(priority: [], store: store)
        let fourth = try healthetl(upload)
        #expect(json(fourth)["source_priority_sent"] as? Bool == true)
        #expect(try differences(store: store).isEmpty)
        let restored = try projections(store: store, local: false)
        for (key, day) in before.days {
            #expect(Self.close(day["sum"], restored.days[key]?["sum"]), "\(key)")
        }
    }
}
