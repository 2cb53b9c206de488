import Crypto
import HealthETLCore

extension WireBatch {
    /// The collector API's form of a batch the queue delivers.
    public init(_ batch: DeliveryBatch) {
        self.init(
            batchID: batch.batchID, samples: batch.samples.map(WireSample.init),
            deletions: batch.deletions.map(WireDeletion.init))
    }

    /// SHA-256 of the canonical JSON (`jsonBytes()`): two bodies that decode to the same batch
    /// have the same digest, whatever their key order, spacing or compression.
    public func canonicalDigest() -> [UInt8] {
        Array(SHA256.hash(data: jsonBytes()))
    }
}
