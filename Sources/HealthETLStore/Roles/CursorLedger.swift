import HealthETLCore

/// Where each stream's lanes have committed to, and the settings a live stream was created with.
public protocol CursorLedger: AnyObject {
    func cursors() throws -> [StreamCursor]
    func cursor(stream: String, lane: Lane) throws -> Int64?
    func streamSettings(_ stream: String) throws -> String?
    func setStreamSettings(_ stream: String, to settings: String) throws
}

extension Store: CursorLedger {}
