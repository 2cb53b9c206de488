import HealthETLCore

/// Collects the track points of a GPX 1.1 file as Apple writes them: `trkpt lat lon` with
/// `ele`, `time` and `extensions/speed`, `hAcc` children.
final class GPXReader: XMLTextHandler {
    private(set) var points: [RoutePoint] = []
    private var current: RoutePoint?
    private var field: Field?
    private var text: [UInt8] = []

    private enum Field {
        case elevation, time, speed, horizontalAccuracy
    }

    func startElement(_ name: XMLBytes, attributes: XMLAttributes) throws {
        if name == "trkpt" {
            guard let latitude = attributes.string("lat").flatMap(Double.init),
                let longitude = attributes.string("lon").flatMap(Double.init)
            else { return }
            current = RoutePoint(instant: nil, latitude: latitude, longitude: longitude)
        } else if current != nil {
            field = name == "ele" ? .elevation : name == "time" ? .time : name == "speed" ? .speed
                : name == "hAcc" ? .horizontalAccuracy : nil
            text.removeAll(keepingCapacity: true)
        }
    }

    func characters(_ chunk: XMLBytes) {
        if field != nil { text.append(contentsOf: chunk.bytes) }
    }

    func endElement(_ name: XMLBytes) throws {
        if name == "trkpt", let point = current {
            points.append(point)
            current = nil
            return
        }
        guard let field, current != nil else { return }
        let value = String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        switch field {
        case .elevation: current?.elevationMeters = Double(value)
        case .time: current?.instant = TimestampParser.parse(value)?.instant
        case .speed: current?.speedMetersPerSecond = Double(value)
        case .horizontalAccuracy: current?.horizontalAccuracyMeters = Double(value)
        }
        self.field = nil
    }
}
