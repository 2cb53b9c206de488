import Foundation
import HealthETLRuntime
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// glibc's allocator keeps a batch's freed buffers for the next batch instead of handing them
/// back to the kernel and faulting them in again.
@Suite struct AllocatorOptionsTests {
    #if os(Linux)
        /// One batch's allocations, shaped like an upload's: a 2 MiB block first (it moves glibc's
        /// own threshold up to 2 MiB), then eight 1 MiB ones, every page written, all freed.
        static let blockSizes = [2 << 20] + Array(repeating: 1 << 20, count: 8)
        static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        static let pagesPerBatch = blockSizes.reduce(0, +) / pageSize

        static func batch() {
            var blocks: [UnsafeMutableRawPointer] = []
            for size in blockSizes {
                guard let block = malloc(size) else { continue }
                for offset in stride(from: 0, to: size, by: pageSize) {
                    block.storeBytes(of: 1, toByteOffset: offset, as: UInt8.self)
                }
                blocks.append(block)
            }
            for block in blocks.reversed() { free(block) }
        }

        /// This thread's minor page faults so far.
        static func threadFaults() -> Int {
            var usage = rusage()
            getrusage(__rusage_who_t(1), &usage)  // RUSAGE_THREAD, which Glibc does not export
            return usage.ru_minflt
        }

        /// The faults of 20 batches on a new thread, after two to warm up.
        static func faultsOfTwentyBatches() -> Int {
            let faults = Mutex(0)
            let done = DispatchSemaphore(value: 0)
            Thread {
                batch()
                batch()
                let before = threadFaults()
                for _ in 0..<20 { batch() }
                faults.withLock { $0 = threadFaults() - before }
                done.signal()
            }.start()
            done.wait()
            return faults.withLock { $0 }
        }

        @Test func batchesReuseTheirFreedPages() {
            #expect(AllocatorOptions.keepFreedMemory(environment: [:]))
            // With glibc's own thresholds most batches fault their pages in again (25,000 in this
            // test process, 50,000 alone); other threads taking freed blocks may cost a few
            // batches' worth, no more.
            let faults = Self.faultsOfTwentyBatches()
            #expect(faults < 4 * Self.pagesPerBatch, "\(faults) faults in 20 batches of \(Self.pagesPerBatch) pages")
        }
    #endif

    @Test func theUsersOwnAllocatorSettingsWin() {
        #expect(!AllocatorOptions.keepFreedMemory(environment: ["MALLOC_TRIM_THRESHOLD_": "131072"]))
        #expect(!AllocatorOptions.keepFreedMemory(environment: ["MALLOC_MMAP_THRESHOLD_": "131072"]))
        #expect(!AllocatorOptions.keepFreedMemory(environment: ["GLIBC_TUNABLES": "glibc.malloc.trim_threshold=0"]))
    }

    #if os(Linux)
        @Test func otherGlibcTunablesLeaveTheOptionsOn() {
            #expect(AllocatorOptions.keepFreedMemory(environment: ["GLIBC_TUNABLES": "glibc.pthread.rseq=0"]))
        }
    #endif
}
