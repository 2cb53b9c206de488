/// A decoding failure in words, with the path to the bad field but none of the data.
enum DecodingErrorText {
    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)) must be \(name(type))"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)) must be \(name(type)), not null"
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])) is missing"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "the body is not valid JSON" : "\(path(context.codingPath)) is invalid"
        @unknown default:
            return "the body does not match the batch format"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        guard !keys.isEmpty else { return "the body" }
        var text = ""
        for key in keys {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return text
    }

    private static func name(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Double.Type, is Int.Type, is Int32.Type, is Int64.Type: return "a number"
        case is Bool.Type: return "true or false"
        default: return type is any Collection.Type ? "an array" : "an object"
        }
    }
}
