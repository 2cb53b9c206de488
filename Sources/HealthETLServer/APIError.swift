import Foundation
import HealthETLCollectorStorage
import HealthETLCore
import HealthETLWire
import Hummingbird

/// An error answered as JSON `{error, message}` with its HTTP status.
struct APIError: Error, HTTPResponseError {
    let status: HTTPResponse.Status
    let code: String
    let message: String

    init(_ status: HTTPResponse.Status, _ code: String, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        JSONResponse.make(status: status, WireError(error: code, message: message))
    }

    static func unauthorized() -> APIError {
        APIError(.unauthorized, "unauthorized", "a valid 'Authorization: Bearer TOKEN' header is required")
    }

    static func badRequest(_ message: String) -> APIError { APIError(.badRequest, "bad_request", message) }
}

/// JSON bodies for responses.
enum JSONResponse {
    static var encoder: JSONEncoder { ResponseJSON.encoder }

    static func make(status: HTTPResponse.Status = .ok, _ value: some Encodable, headers: HTTPFields = [:]) -> Response
    {
        guard let data = try? encoder.encode(value) else {
            // Only a non-finite number can fail to encode; say so rather than send a wrong body.
            let failure = #"{"error":"internal","message":"the collector could not encode its answer"}"#
            return make(status: .internalServerError, bytes: Array(failure.utf8))
        }
        return make(status: status, bytes: data, headers: headers)
    }

    static func make(status: HTTPResponse.Status, bytes: some Collection<UInt8>, headers: HTTPFields = [:]) -> Response
    {
        var fields = headers
        fields[.contentType] = "application/json"
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
