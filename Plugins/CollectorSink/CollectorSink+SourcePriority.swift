import AsyncHTTPClient
import Foundation
import HealthETLCore
import HealthETLWire

extension CollectorSink {
    /// `PUT /v1/settings/source-priority`. Names the collector would refuse are refused here,
    /// before anything is sent.
    public func setSourcePriority(_ sources: [String]) async throws(DeliveryError) {
        let wanted = WireSourcePriority(sources: sources)
        if let problem = wanted.problem {
            throw .permanent(reason: "the source priority cannot be sent: \(problem)")
        }
        let subject = "the source priority"
        var request = HTTPClientRequest(url: configuration.endpoint + "/v1/settings/source-priority")
        request.method = .PUT
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "Accept", value: "application/json")
        guard let body = try? JSONEncoder().encode(wanted) else {
            throw .permanent(reason: "\(subject) could not be encoded as JSON")
        }
        request.body = .bytes(body)
        let answer = try await exchange(request, subject: subject)
        // The collector answers with what it stored; anything else may not have been stored.
        guard let stored = try? JSONDecoder().decode(WireSourcePriority.self, from: Data(answer.body)),
            stored == wanted
        else {
            throw .retryable(
                reason: "the collector's answer to \(subject) is not the priority sent", notBeforeSeconds: nil
            )
        }
    }
}
