import HealthETLCore

/// Reads the GPX files workouts reference (`FileReference path=…`) into route points, each file
/// once per read: a file referenced again adds nothing (an export references each route once;
/// thousands of references to one file would otherwise multiply its points without bound).
final class RouteResolver {
    private let files: any ExportFiles
    private var filesRead: Set<String> = []

    init(files: any ExportFiles) {
        self.files = files
    }

    /// Route points one workout keeps (55 hours at one a second, about 16 MB); more are counted.
    static let maximumPoints = 200_000

    /// The points of every referenced file that exists; a missing or damaged file is a warning.
    /// Each file is parsed as it streams out of the export, never held whole.
    /// - Parameter limit: how many points to keep at most (the workout may hold some already).
    func points(for paths: [String], keeping limit: Int, warn: (String) -> Void) throws -> [RoutePoint] {
        var points: [RoutePoint] = []
        var omitted = 0
        for path in paths {
            guard filesRead.insert(type(of: files).relative(path)).inserted else {
                warn("repeated_route_file")
                continue
            }
            let reader = GPXReader(keeping: limit - points.count)
            let parser = XMLStreamParser(handler: reader)
            do {
                guard try files.streamFile(path, into: { try parser.feed($0) }) else {
                    warn("route_file_missing")
                    continue
                }
                try parser.finish()
            } catch ExportError.sideFileTooLarge {
                warn("route_file_too_large")
                continue
            } catch is XMLStreamError {
                warn("unparseable_route_file")
            }
            for _ in 0..<reader.refusedPoints { warn("invalid_route_point") }
            points += reader.points
            omitted += reader.omittedPoints
        }
        if omitted > 0 { warn("route_truncated") }
        return points
    }
}
