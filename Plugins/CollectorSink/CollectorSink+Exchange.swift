import AsyncHTTPClient
import Foundation
import HealthETLCore
import NIOCore

extension CollectorSink {
    /// Sends one authenticated request and reads the answer within the size caps.
    /// - Throws: `DeliveryError` for anything but a 2xx answer.
    func exchange(_ request: HTTPClientRequest, subject: String) async throws(DeliveryError)
        -> CollectorAnswer
    {
        var request = request
        // Added here and nowhere else; the request is never logged.
        request.headers.add(name: "Authorization", value: "Bearer " + configuration.token.secret)
        let started = clock.monotonic()
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, timeout: .duration(configuration.requestTimeout))
        } catch {
            throw ResponseClassifier.transportFailure(
                error, subject: subject, timeout: configuration.requestTimeout)
        }
        let status = Int(response.status.code)
        let succeeded = (200..<300).contains(status)
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
            status: status, body: body,
            replayed: response.headers.first(name: "Idempotent-Replayed") == "true")
    }
}
