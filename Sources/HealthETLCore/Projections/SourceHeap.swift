/// A binary min-heap of source ordinals: the best source present during a sweep in O(log n).
///
/// Sources that left are removed lazily, when they reach the top (see `PrioritySweep`).
struct SourceHeap: Sendable {
    private var elements: [Int] = []

    var minimum: Int? { elements.first }

    mutating func insert(_ source: Int) {
        elements.append(source)
        var child = elements.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard elements[child] < elements[parent] else { return }
            elements.swapAt(child, parent)
            child = parent
        }
    }

    mutating func removeMinimum() {
        guard !elements.isEmpty else { return }
        elements.swapAt(0, elements.count - 1)
        elements.removeLast()
        var parent = 0
        while true {
            var smallest = parent
            for child in (2 * parent + 1)...(2 * parent + 2)
            where child < elements.count && elements[child] < elements[smallest] {
                smallest = child
            }
            guard smallest != parent else { return }
            elements.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
