import HummingbirdCore
import Prometheus

/// At most so many connections served at once (Hummingbird's limit), each counted in the
/// metrics while it is open.
struct CountedConnections: AvailableConnectionsDelegate {
    var limit: MaximumAvailableConnections
    let open: Gauge?

    init(maximum: Int, open: Gauge?) {
        limit = MaximumAvailableConnections(maximum)
        self.open = open
    }

    mutating func connectionOpened() {
        limit.connectionOpened()
        open?.increment()
    }

    mutating func connectionClosed() {
        limit.connectionClosed()
        open?.decrement()
    }

    func isAcceptingNewConnections() -> Bool { limit.isAcceptingNewConnections() }
}
