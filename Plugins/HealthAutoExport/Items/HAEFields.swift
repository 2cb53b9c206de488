import HealthETLCore

/// Reading the members of one HAE item: dates, values and the members kept as metadata.
enum HAEFields {
    /// The source a record gets when HAE names none (workouts, some sections).
    static let defaultSource = "Health Auto Export"

    /// A date as written: parsed once here (the normalizer then has the instant), or kept as
    /// text when it is no date-time, so the record is quarantined with what was written.
    static func time(_ value: JSONValue?) -> RawTime {
        guard let text = value?.text else { return .text(value.map(describe) ?? "") }
        return TimestampParser.parse(text).map(RawTime.timestamp) ?? .text(text)
    }

    /// A value as written: numbers and strings as text, anything else so that it is refused.
    static func value(_ value: JSONValue?) -> RawValue {
        switch value {
        case nil, .null?: .absent
        case .number(let text)?, .string(let text)?: .text(text)
        case .bool(let flag)?: .text(flag ? "true" : "false")
        case .object?, .array?: .text(describe(value!))
        }
    }

    /// The first member present of `keys`, for fields HAE spells more than one way.
    static func first(_ keys: [String], in item: JSONValue) -> JSONValue? {
        for key in keys { if let value = item[key], value != .null { return value } }
        return nil
    }

    /// `name`, or else `alternative`: the per-point form of `first`, which builds no array.
    static func first(_ name: String, or alternative: String, in item: JSONValue) -> JSONValue? {
        if let value = item[name], value != .null { return value }
        if let value = item[alternative], value != .null { return value }
        return nil
    }

    /// The item's scalar members other than `known`, as metadata `hae_<name>`: what HAE wrote
    /// beyond the value and the dates is kept rather than dropped. (`known` is a short list:
    /// comparing a few short names is cheaper than hashing each.)
    static func extras(of item: JSONValue, known: [String]) -> [MetadataEntry] {
        guard case .object(let members) = item else { return [] }
        var entries: [MetadataEntry] = []
        for member in members where !known.contains(member.key) {
            switch member.value {
            case .string(let text), .number(let text):
                entries.append(MetadataEntry(key: "hae_" + member.key, value: text))
            case .bool(let flag): entries.append(MetadataEntry(key: "hae_" + member.key, value: flag ? "1" : "0"))
            case .array(let items) where items.allSatisfy({ $0.text != nil }):
                entries.append(
                    MetadataEntry(key: "hae_" + member.key, value: items.compactMap(\.text).joined(separator: "|")))
            default: continue
            }
        }
        return entries
    }

    /// A `{qty, units}` member (workouts v2, sections), or a bare number (v1).
    static func quantity(_ value: JSONValue?) -> (qty: Double, units: String?)? {
        switch value {
        case .number(let text)?: return Double(text).map { ($0, nil) }
        case .object?:
            guard let qty = value?["qty"]?.text.flatMap(Double.init) else { return nil }
            return (qty, value?["units"]?.text)
        default: return nil
        }
    }

    /// How a value that is not a scalar reads in a quarantined record.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .object: "(an object)"
        case .array: "(an array)"
        case .string(let text), .number(let text): text
        case .bool(let flag): flag ? "true" : "false"
        case .null: "null"
        }
    }
}
