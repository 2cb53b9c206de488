/// A plugin's section of the config file: its keys' values, read with the type each key takes.
public struct PluginSettings: Sendable, Equatable {
    public enum Value: Sendable, Equatable {
        case text(String)
        case number(Double)
        case flag(Bool)
        case list([String])
    }

    /// `sinks.collector`: named in errors so a user knows where to look.
    public var section: String
    public var values: [String: Value]

    public init(section: String, values: [String: Value] = [:]) {
        self.section = section
        self.values = values
    }

    public func text(_ key: String) throws(PluginSettingsError) -> String? {
        switch values[key] {
        case nil: return nil
        case .text(let text): return text
        default: throw PluginSettingsError(section: section, key: key, expected: "text")
        }
    }

    public func flag(_ key: String) throws(PluginSettingsError) -> Bool? {
        switch values[key] {
        case nil: return nil
        case .flag(let flag): return flag
        default: throw PluginSettingsError(section: section, key: key, expected: "true or false")
        }
    }

    public func integer(_ key: String) throws(PluginSettingsError) -> Int? {
        switch values[key] {
        case nil: return nil
        case .number(let number) where number.rounded() == number && abs(number) < 1e15: return Int(number)
        default: throw PluginSettingsError(section: section, key: key, expected: "a whole number")
        }
    }

    public func list(_ key: String) throws(PluginSettingsError) -> [String]? {
        switch values[key] {
        case nil: return nil
        case .list(let list): return list
        default: throw PluginSettingsError(section: section, key: key, expected: "a list of text")
        }
    }
}

/// A config-file value of the wrong type.
public struct PluginSettingsError: Error, Equatable, Sendable, CustomStringConvertible {
    public var section: String
    public var key: String
    public var expected: String

    public init(section: String, key: String, expected: String) {
        self.section = section
        self.key = key
        self.expected = expected
    }

    public var description: String { "\(section).\(key) must be \(expected)" }
}

/// A setting as JSON: true/false, a number, text, or a list of text.
extension PluginSettings.Value: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let flag = try? container.decode(Bool.self) {
            self = .flag(flag)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let text = try? container.decode(String.self) {
            self = .text(text)
        } else if let list = try? container.decode([String].self) {
            self = .list(list)
        } else {
            throw DecodingError.typeMismatch(
                PluginSettings.Value.self,
                DecodingError.Context(
                    codingPath: container.codingPath,
                    debugDescription: "a setting is true/false, a number, text or a list of text"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .flag(let flag): try container.encode(flag)
        case .number(let number):
            if number.rounded() == number, abs(number) < 1e15 {
                try container.encode(Int64(number))
            } else {
                try container.encode(number)
            }
        case .text(let text): try container.encode(text)
        case .list(let list): try container.encode(list)
        }
    }
}
