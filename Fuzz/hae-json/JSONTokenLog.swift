@testable import HealthAutoExport

/// What `JSONTokenizer` makes of one text: its tokens in order and the error that ended it, if any.
struct JSONTokenLog: Equatable {
    var tokens: [JSONToken] = []
    var error: JSONStreamError?

    /// Tokenizes `chunks` as one text, start to end.
    init(_ chunks: some Sequence<UnsafeRawBufferPointer>) {
        var tokenizer = JSONTokenizer()
        var tokens: [JSONToken] = []
        do {
            for chunk in chunks { try tokenizer.feed(chunk) { tokens.append($0) } }
            try tokenizer.finish { tokens.append($0) }
        } catch let error as JSONStreamError {
            self.error = error
        } catch {
            fatalError("JSONTokenizer threw \(error), not a JSONStreamError")
        }
        self.tokens = tokens
    }
}
