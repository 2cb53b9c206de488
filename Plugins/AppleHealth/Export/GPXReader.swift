import Foundation
import HealthETLCore

/// Collects the track points of a GPX 1.1 file as Apple writes them: `trkpt lat lon` with
/// `ele`, `time` and `extensions/speed`, `hAcc` children.
///
/// Its state is not checked for exclusive access at run time: it is confined to its parser's
/// thread, one callback at a time (the checks were about a tenth of reading a route file).
final class GPXReader: XMLTextHandler {
    @exclusivity(unchecked) private(set) var points: [RoutePoint] = []
    /// Track points left out: a coordinate missing, not a number, or off the globe.
    private(set) var refusedPoints = 0
    /// Track points past the number kept, counted only.
    @exclusivity(unchecked) private(set) var omittedPoints = 0
    private let keeping: Int

    /// - Parameter keeping: how many points to keep at most.
    init(keeping: Int) {
        self.keeping = keeping
    }
    @exclusivity(unchecked) private var current: RoutePoint?
    @exclusivity(unchecked) private var field: Field?
    @exclusivity(unchecked) private var text: [UInt8] = []

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private enum Field {
        case elevation, time, speed, horizontalAccuracy
    }

    func startElement(_ name: XMLBytes, attributes: XMLAttributes) throws {
        if name == "trkpt" {
            let point = RoutePoint(
                instant: nil, latitude: attributes["lat"].flatMap { DecimalText.number($0.bytes) } ?? .nan,
                longitude: attributes["lon"].flatMap { DecimalText.number($0.bytes) } ?? .nan)
            guard point.isOnEarth else {
                refusedPoints += 1
                return
            }
            current = point
        } else if current != nil {
            field =
                name == "ele"
                ? .elevation
                : name == "time"
                    ? .time
                    : name == "speed"
                        ? .speed
                        : name == "hAcc" ? .horizontalAccuracy : nil
            text.removeAll(keepingCapacity: true)
        }
    }

    func characters(_ chunk: XMLBytes) {
        if field != nil { text.append(contentsOf: chunk.bytes) }
    }

    func endElement(_ name: XMLBytes) throws {
        if name == "trkpt", let point = current {
            if points.count < keeping { points.append(point) } else { omittedPoints += 1 }
            current = nil
            return
        }
        guard let field, current != nil else { return }
        self.field = nil
        // Trim the text's surrounding white space in place and parse it without a String.
        guard let first = text.firstIndex(where: { !Self.isSpace($0) }),
            let last = text.lastIndex(where: { !Self.isSpace($0) })
        else { return }
        text.withUnsafeBufferPointer { all in
            let value = UnsafeBufferPointer(rebasing: all[first...last])
            switch field {
            case .elevation: current?.elevationMeters = DecimalText.number(value)
            case .time: current?.instant = TimestampParser.parse(bytes: value)?.instant
            case .speed: current?.speedMetersPerSecond = DecimalText.number(value)
            case .horizontalAccuracy: current?.horizontalAccuracyMeters = DecimalText.number(value)
            }
        }
    }
}
