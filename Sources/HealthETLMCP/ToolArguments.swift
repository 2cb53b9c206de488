import HealthETLCore
import MCP

/// A tool call's arguments, read with the errors a model can act on.
struct ToolArguments {
    let values: [String: Value]

    init(_ values: [String: Value]?) {
        self.values = values ?? [:]
    }

    func string(_ name: String) throws -> String? {
        guard let value = values[name], !value.isNull else { return nil }
        guard let text = value.stringValue else { throw ToolError("\(name) must be a string") }
        return text
    }

    func required(_ name: String) throws -> String {
        guard let text = try string(name), !text.isEmpty else { throw ToolError("\(name) is required") }
        return text
    }

    func bool(_ name: String) throws -> Bool? {
        guard let value = values[name], !value.isNull else { return nil }
        guard let flag = value.boolValue else { throw ToolError("\(name) must be true or false") }
        return flag
    }

    func integer(_ name: String, in bounds: ClosedRange<Int>) throws -> Int? {
        guard let value = values[name], !value.isNull else { return nil }
        // JSON has one number type: a whole double is an integer too.
        let number: Int? =
            value.intValue
            ?? value.doubleValue.flatMap { $0 == $0.rounded() && abs($0) < 1e15 ? Int($0) : nil }
        guard let number else { throw ToolError("\(name) must be a whole number") }
        guard bounds.contains(number) else {
            throw ToolError("\(name) must be from \(bounds.lowerBound) to \(bounds.upperBound); \(number) is outside")
        }
        return number
    }

    /// `from` and `to` as local days (YYYY-MM-DD), each defaulting as given, at most `maximumDays`
    /// long.
    func days(
        defaultLast: CivilDate, defaultSpan: Int64, maximumDays: Int64
    ) throws -> ClosedRange<CivilDate> {
        let last = try day("to") ?? defaultLast
        let first = try day("from") ?? last.adding(days: 1 - defaultSpan)
        guard first <= last else { throw ToolError("from (\(first)) must not be after to (\(last))") }
        let span = last.daysSinceEpoch - first.daysSinceEpoch + 1
        guard span <= maximumDays else {
            throw ToolError(
                "the range holds \(span) days; ask for at most \(maximumDays) at a time (e.g. from \(last.adding(days: 1 - maximumDays)) to \(last))"
            )
        }
        return first...last
    }

    private func day(_ name: String) throws -> CivilDate? {
        guard let text = try string(name) else { return nil }
        guard let day = CivilDate(text: text) else { throw ToolError("\(name) must be a local day, YYYY-MM-DD") }
        return day
    }
}
