import MCP

/// The few JSON Schema shapes the tools' input and output schemas are built from.
enum JSONSchema {
    static func object(_ properties: [String: Value], required: [String] = [], description: String? = nil) -> Value {
        var schema: [String: Value] = [
            "type": "object", "properties": .object(properties), "required": .array(required.map { .string($0) }),
        ]
        if let description { schema["description"] = .string(description) }
        return .object(schema)
    }

    static func array(_ items: Value) -> Value {
        ["type": "array", "items": items]
    }

    static func string(_ description: String? = nil) -> Value { typed("string", description) }
    static func integer(_ description: String? = nil) -> Value { typed("integer", description) }
    static func number(_ description: String? = nil) -> Value { typed("number", description) }
    static func boolean(_ description: String? = nil) -> Value { typed("boolean", description) }

    /// A value that may be JSON `null`.
    static func nullable(_ type: String) -> Value {
        ["type": .array([.string(type), "null"])]
    }

    static func choice(_ values: [String], _ description: String) -> Value {
        ["type": "string", "enum": .array(values.map { .string($0) }), "description": .string(description)]
    }

    /// A local day, YYYY-MM-DD.
    static func day(_ description: String) -> Value {
        ["type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$", "description": .string(description)]
    }

    /// A map of strings to values of one shape.
    static func map(_ values: Value) -> Value {
        ["type": "object", "additionalProperties": values]
    }

    private static func typed(_ type: String, _ description: String?) -> Value {
        var schema: [String: Value] = ["type": .string(type)]
        if let description { schema["description"] = .string(description) }
        return .object(schema)
    }
}
