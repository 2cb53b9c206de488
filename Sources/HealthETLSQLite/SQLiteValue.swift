/// A value bound to a statement parameter.
package enum SQLiteValue {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    package static func optional(_ text: String?) -> SQLiteValue { text.map(SQLiteValue.text) ?? .null }
    package static func optional(_ number: Double?) -> SQLiteValue { number.map(SQLiteValue.real) ?? .null }
    package static func optional(_ number: Int64?) -> SQLiteValue { number.map(SQLiteValue.integer) ?? .null }
}
