import AsyncHTTPClient
import Foundation
import HealthETLCore
import NIOCore

extension CollectorSink {
    /// Sends one authenticated request and reads the answer within the size caps.
    /// - Throws: `DeliveryError` for anything but a 2xx answer.
    /// - Parameter accepting: statuses besides 2xx returned rather than thrown (304, 410).
    func exchange(_ request: HTTPClientRequest, subject: String, accepting: Set<Int> = []) async throws(DeliveryError)
        -> CollectorAnswer
    {
        let request = authorized(request)
        let started = clock.monotonic()
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, timeout: .duration(configuration.requestTimeout))
        } catch {
            throw ResponseClassifier.transportFailure(
                error, subject: subject, timeout: configuration.requestTimeout)
        }
        let status = Int(response.status.code)
        let succeeded = (200..<300).contains(status) || accepting.contains(status)
        var body: [UInt8] = []
        do {
            let buffer = try await response.body.collect(
                upTo: succeeded ? Self.maximumAnswerBytes : Self.maximumErrorBytes)
            body = Array(buffer.readableBytesView)
        } catch is NIOTooManyBytesError {
            if succeeded {
                throw .retryable(
                    reason:
                        "the collector's answer to \(subject) is larger than \(Self.maximumAnswerBytes >> 20) MiB",
                    notBeforeSeconds: nil)
            }
            // An oversized error page still has a status worth classifying.
        } catch {
            throw ResponseClassifier.transportFailure(
                error, subject: subject, timeout: configuration.requestTimeout)
        }
        logger.debug(
            "Collector answered",
            metadata: [
                "http.method": "\(request.method.rawValue)", "http.status": "\(status)",
                "http.subject": "\(subject)",
                "http.response_bytes": "\(body.count)",
                "duration.ms": "\(Int((clock.secondsSince(started) * 1000).rounded()))",
            ])
        guard succeeded else {
            throw ResponseClassifier.classify(
                status: status, retryAfter: response.headers.first(name: "Retry-After"),
                location: response.headers.first(name: "Location"),
                body: body, now: clock.now(), subject: subject)
        }
        return CollectorAnswer(
            status: status, body: body, etag: response.headers.first(name: "ETag"),
            replayed: response.headers.first(name: "Idempotent-Replayed") == "true",
            date: response.headers.first(name: "Date"))
    }

    /// The request with the bearer token: added here and nowhere else; a request is never logged.
    func authorized(_ request: HTTPClientRequest) -> HTTPClientRequest {
        var request = request
        request.headers.add(name: "Authorization", value: "Bearer " + configuration.token.secret)
        return request
    }
}
