import Foundation

/// A fresh directory under the system temp dir, removed when the value is deinitialised.
public final class TemporaryDirectory: @unchecked Sendable {
    public let path: String

    public init(_ label: String = "healthetl-test") {
        let base = NSTemporaryDirectory() + "\(label)-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(
            atPath: base, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        path = base
    }

    /// A path inside the directory (not created).
    public func child(_ name: String) -> String { path + "/" + name }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
