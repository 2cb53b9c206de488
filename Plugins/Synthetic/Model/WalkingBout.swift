/// A stretch of walking one device counted, from which both its steps and its distance come.
struct WalkingBout {
    let start: Int64
    let end: Int64
    let steps: Int64
    let strideMetres: Double
    let noise: UInt64
}
