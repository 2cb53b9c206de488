import Foundation
import HealthETLCore
import HealthETLStore

/// Reads a selection of samples from the store on a thread of its own and hands them over in
/// blocks: the store's reading and the caller's formatting and writing run on two cores. The
/// reader's connection lives and dies on its thread (SQLite handles are not shared).
struct ThreadedSampleReader {
    let directory: StoreDirectory
    let selection: SampleSelection
    let clock: Clock
    /// Samples per block, and blocks queued at most: a few megabytes in flight.
    static let blockSize = 4096
    static let queuedBlocks = 4

    private enum Message: Sendable {
        case names(ExportNames)
        case samples([ExportedSample])
    }

    private struct Stopped: Error {}

    /// Calls `names` with what the samples' numbers stand for, then `body` with every selected
    /// sample, in the store's order.
    func forEach(names: (ExportNames) throws -> Void, _ body: (ExportedSample) throws -> Void) throws {
        let handOff = BlockHandOff<Message>(capacity: Self.queuedBlocks)
        let (directory, selection, clock) = (self.directory, self.selection, self.clock)
        let reading = ThreadWork(name: "healthetl-export-reader") {
            Self.read(directory, selection, clock, into: handOff)
        }
        // However the loop ends, the reader stops and is gone (its store closed) before we return.
        defer {
            handOff.cancel()
            _ = try? reading.value()
        }
        while let message = try handOff.receive() {
            switch message {
            case .names(let given): try names(given)
            case .samples(let block): for sample in block { try body(sample) }
            }
        }
    }

    /// The reader thread's work: the store is opened, read and closed here.
    private static func read(
        _ directory: StoreDirectory, _ selection: SampleSelection, _ clock: Clock, into handOff: BlockHandOff<Message>
    ) {
        do {
            let store = try Store(directory: directory, clock: clock)
            var block: [ExportedSample] = []
            block.reserveCapacity(blockSize)
            var sinceCheck = 0
            try store.exportSamples(selection) { names in
                guard handOff.send(.names(names)) else { throw Stopped() }
            } _: { sample in
                block.append(sample)
                if block.count == blockSize {
                    guard handOff.send(.samples(block)) else { throw Stopped() }
                    block.removeAll(keepingCapacity: true)
                }
                // A selection that skips most rows sends rarely: ask between blocks too.
                sinceCheck += 1
                if sinceCheck == 1024 {
                    sinceCheck = 0
                    if handOff.isCancelled { throw Stopped() }
                }
            }
            if !block.isEmpty { _ = handOff.send(.samples(block)) }
            handOff.finish()
        } catch is Stopped {
            handOff.finish()
        } catch {
            handOff.finish(throwing: error)
        }
    }
}
