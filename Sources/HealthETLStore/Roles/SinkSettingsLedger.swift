/// The settings each sink last accepted (the source priority, for one), so they are sent again
/// only when they change.
public protocol SinkSettingsLedger: AnyObject {
    func sentSinkSetting(_ name: String, sink: String) throws -> String?
    func recordSentSinkSetting(_ name: String, value: String, sink: String) throws
}

extension Store: SinkSettingsLedger {}
