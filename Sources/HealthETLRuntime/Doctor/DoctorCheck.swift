/// One finding of `healthetl doctor`: what was checked, how it went, and the fix when it is a problem.
public struct DoctorCheck: Sendable, Equatable, Encodable {
    public enum Verdict: String, Sendable, Encodable {
        case ok, problem
        /// Not checked, and why (no collector configured, no store yet).
        case skipped
    }

    public var name: String
    public var verdict: Verdict
    public var detail: String
    public var fix: String?

    static func ok(_ name: String, _ detail: String) -> DoctorCheck {
        DoctorCheck(name: name, verdict: .ok, detail: detail, fix: nil)
    }

    static func problem(_ name: String, _ detail: String, fix: String) -> DoctorCheck {
        DoctorCheck(name: name, verdict: .problem, detail: detail, fix: fix)
    }

    static func skipped(_ name: String, _ detail: String) -> DoctorCheck {
        DoctorCheck(name: name, verdict: .skipped, detail: detail, fix: nil)
    }
}
