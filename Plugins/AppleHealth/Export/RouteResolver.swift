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

    /// The points of every referenced file that exists; a missing or damaged file is a warning.
    func points(for paths: [String], warn: (String) -> Void) throws -> [RoutePoint] {
        var points: [RoutePoint] = []
        for path in paths {
            guard filesRead.insert(type(of: files).relative(path)).inserted else {
                warn("repeated_route_file")
                continue
            }
            let bytes: [UInt8]?
            do {
                bytes = try files.readFile(path)
            } catch let error as ExportError {
                if case .sideFileTooLarge = error {
                    warn("route_file_too_large")
                    continue
                }
                throw error
            }
            guard let bytes else {
                warn("route_file_missing")
                continue
            }
            let reader = GPXReader()
            let parser = XMLStreamParser(handler: reader)
            do {
                try bytes.withUnsafeBytes { try parser.feed($0) }
                try parser.finish()
            } catch is XMLStreamError {
                warn("unparseable_route_file")
            }
            for _ in 0..<reader.refusedPoints { warn("invalid_route_point") }
            points += reader.points
        }
        return points
    }
}
