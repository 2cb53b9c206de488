/// A name as a caller sent it, quoted and cut to 64 characters, for an error message: an
/// unknown metric, tool or cursor is said back without echoing a whole request.
public enum QuotedName {
    public static func of(_ text: String) -> String {
        "\"" + String(text.prefix(64)) + (text.count > 64 ? "…" : "") + "\""
    }
}
