struct UsageError: Error, CustomStringConvertible {
    let description: String
}

struct Options {
    var records = 300_000
    var seed: UInt64 = 1
    var out = "export.xml"
    var zipPath: String?
    var routesDirectory: String?
    var routeInterval = 10

    static let usage = """
        usage: healthetl-export-gen --records N [--seed S] [--out export.xml] [--zip]
                                    [--zip-out PATH] [--routes-dir DIR] [--route-interval SECONDS]

        Writes a synthetic Apple Health export.xml in the real format (HealthKit export v14: DTD,
        Me, Records, blood-pressure Correlations, Workouts, ActivitySummaries), deterministic for
        a seed, streaming in constant memory.

          --records N          top-level <Record> elements to write, exactly (default 300000)
          --seed S             seed (default 1); the same seed gives the same bytes
          --out PATH           the export.xml to write (default export.xml)
          --zip                also write export.zip beside it (apple_health_export/export.xml and
                               apple_health_export/workout-routes/*.gpx, deflated, via python3)
          --zip-out PATH       the zip's path (implies --zip; default: --out with .zip)
          --routes-dir DIR     also write the workouts' GPX route files into DIR
          --route-interval S   seconds between GPX track points (default 10)

        A one-line JSON summary of what was written goes to standard error.
        """

    static func parse(_ arguments: [String]) throws -> Options {
        var options = Options()
        var wantsZip = false
        var index = 0
        func value(_ name: String) throws -> String {
            index += 1
            guard index < arguments.count else { throw UsageError(description: "\(name) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--records":
                let text = try value(argument).filter { $0 != "_" }
                guard let n = Int(text), n >= 10 else {
                    throw UsageError(description: "--records must be an integer ≥ 10")
                }
                options.records = n
            case "--seed":
                let text = try value(argument)
                guard let seed = UInt64(text) else {
                    throw UsageError(description: "--seed must be a non-negative integer")
                }
                options.seed = seed
            case "--out": options.out = try value(argument)
            case "--zip": wantsZip = true
            case "--zip-out": options.zipPath = try value(argument)
            case "--routes-dir": options.routesDirectory = try value(argument)
            case "--route-interval":
                guard let s = Int(try value(argument)), s >= 1 else {
                    throw UsageError(description: "--route-interval must be an integer ≥ 1")
                }
                options.routeInterval = s
            case "-h", "--help":
                throw UsageError(description: "")
            default:
                throw UsageError(description: "unknown argument: \(argument)")
            }
            index += 1
        }
        if wantsZip && options.zipPath == nil {
            let out = options.out
            options.zipPath = out.hasSuffix(".xml") ? String(out.dropLast(4)) + ".zip" : out + ".zip"
        }
        if options.zipPath == options.out {
            throw UsageError(description: "the zip and the xml cannot be the same file")
        }
        return options
    }
}
