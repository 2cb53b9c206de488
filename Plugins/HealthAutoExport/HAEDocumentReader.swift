/// Finds the items of a Health Auto Export JSON text in its stream of tokens: each metric's data
/// points (with the metric's name and units), and each item of the other sections (workouts,
/// state of mind, medications, symptoms, ECG, heart-rate notifications). With or without the
/// `{"data": …}` envelope. Only one item is held at a time, so a file of any size streams; a
/// metric's members come in any order, and its points wait (`HAEHeldPoints`, bounded in memory)
/// until its name and units are read or the metric ends.
struct HAEDocumentReader {
    enum Event: Equatable {
        /// A point of a metric's `data`, with the metric's name and units wherever they stand in it.
        case point(metric: String, units: String?, value: JSONValue)
        /// An item of another section, whole.
        case item(section: String, value: JSONValue)
    }

    /// An open container, and for an object the member being read.
    private struct Level {
        var isObject: Bool
        var key: String?
    }

    private var path: [Level] = []
    /// Where in `path` the object holding the sections is, once known.
    private var dataLevel: Int?
    private var builder = JSONValueBuilder()
    private var building: Building?
    private var metricName: String?
    private var metricUnits: String?
    /// Whether the metric's `units` member has been read (it may be absent until the metric ends).
    private var metricUnitsRead = false
    /// Points read before their metric's name or units.
    private var waiting = HAEHeldPoints()

    private enum Building {
        case point
        case item(String)
    }

    /// The sections HAE writes; any other is read past and named in `ignoredSections`.
    static let sections: Set<String> = [
        "metrics", "workouts", "stateOfMind", "medications", "symptoms", "ecg", "heartRateNotifications",
    ]

    /// Sections of the data object this reader does not know, read past.
    private(set) var ignoredSections: Set<String> = []
    /// Places that hold another type than HAE writes (`metrics`, `metrics[].data` not arrays), with
    /// how often: read past, nothing of them taken.
    private(set) var wrongTypes: [String: Int] = [:]
    /// The place whose value must be an array, when the next token is that value.
    private var arrayExpected: String?

    /// Takes the next token, handing on what it completes.
    mutating func take(_ token: JSONToken, emit: (Event) throws -> Void) throws {
        if let place = arrayExpected, building == nil {
            arrayExpected = nil
            if token != .arrayStart { wrongTypes[place, default: 0] += 1 }
        }
        if let kind = building {
            guard let value = try builder.add(token) else { return }
            building = nil
            switch kind {
            case .point: try emitPoint(value, emit)
            case .item(let section): try emit(.item(section: section, value: value))
            }
            return
        }
        switch token {
        case .key(let key):
            if !path.isEmpty { path[path.count - 1].key = key }
            if path.count == 1, dataLevel == nil, Self.sections.contains(key) { dataLevel = 0 }
            if let dataLevel, path.count == dataLevel + 1, Self.sections.contains(key) { arrayExpected = key }
            if isInMetricObject, key == "data" { arrayExpected = "metrics[].data" }
        case .objectStart, .arrayStart:
            if let context = startsItem() {
                building = context
                _ = try builder.add(token)
                return
            }
            if token == .objectStart, path.count == 1, path[0].key == "data", dataLevel == nil { dataLevel = 1 }
            if isMetricObjectStart(token) {
                try flushWaiting(emit)
                metricName = nil
                metricUnits = nil
                metricUnitsRead = false
            }
            path.append(Level(isObject: token == .objectStart, key: nil))
        case .objectEnd, .arrayEnd:
            if isInMetricObject { try flushWaiting(emit) }
            path.removeLast()
        case .string, .number, .bool, .null:
            if let context = startsItem() {
                building = context
                if let value = try builder.add(token) {
                    building = nil
                    if case .item(let section) = context {
                        try emit(.item(section: section, value: value))
                    } else {
                        try emitPoint(value, emit)
                    }
                }
                return
            }
            if isInMetricObject, let key = path.last?.key, let text = JSONValue.scalar(token)?.text {
                if key == "name" { metricName = text }
                if key == "units" {
                    metricUnits = text
                    metricUnitsRead = true
                }
                if metricName != nil, metricUnitsRead, !waiting.isEmpty { try flushWaiting(emit) }
            }
        }
    }

    /// The end of the text: points still waiting for a name are handed on nameless.
    mutating func finish(emit: (Event) throws -> Void) throws {
        try flushWaiting(emit)
    }

    // MARK: - Where the reader is

    private var section: String? {
        guard let dataLevel, path.count > dataLevel else { return nil }
        return path[dataLevel].key
    }

    private var isInMetricObject: Bool {
        guard let dataLevel else { return false }
        return section == "metrics" && path.count == dataLevel + 3 && path[dataLevel + 2].isObject
    }

    private func isMetricObjectStart(_ token: JSONToken) -> Bool {
        guard let dataLevel else { return false }
        return token == .objectStart && section == "metrics" && path.count == dataLevel + 2
    }

    /// What a value starting here is: a point of a metric's data, an item of a section, or neither.
    private mutating func startsItem() -> Building? {
        guard let dataLevel, let section else { return nil }
        if section == "metrics" {
            let inData =
                path.count == dataLevel + 4 && path[dataLevel + 2].key == "data" && !path[dataLevel + 3].isObject
            return inData ? .point : nil
        }
        guard path.count == dataLevel + 2, !path[dataLevel + 1].isObject else { return nil }
        guard Self.sections.contains(section) else {
            ignoredSections.insert(section)
            return nil
        }
        return .item(section)
    }

    private mutating func emitPoint(_ value: JSONValue, _ emit: (Event) throws -> Void) throws {
        guard let metricName, metricUnitsRead else {
            try waiting.append(value)
            return
        }
        try emit(.point(metric: metricName, units: metricUnits, value: value))
    }

    /// Hands on the waiting points with what is known of their metric by now.
    private mutating func flushWaiting(_ emit: (Event) throws -> Void) throws {
        let name = metricName ?? ""
        let units = metricUnits
        try waiting.release { try emit(.point(metric: name, units: units, value: $0)) }
    }
}

extension JSONValue {
    /// The value of a scalar token; nil for a container's start or end, or a key.
    static func scalar(_ token: JSONToken) -> JSONValue? {
        switch token {
        case .string(let text): .string(text)
        case .number(let text): .number(text)
        case .bool(let flag): .bool(flag)
        case .null: .null
        default: nil
        }
    }
}
