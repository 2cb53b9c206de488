/// How much of each source format the catalog maps, and what it does not.
public struct CatalogCoverage: Sendable, Encodable {
    public struct Format: Sendable, Encodable {
        public var id: String
        public var title: String
        public var total: Int
        public var mapped: Int
        /// The names no metric maps, in the list's order.
        public var unmapped: [String]

        public var isComplete: Bool { unmapped.isEmpty }
    }

    public var formats: [Format]

    public init(catalog: MetricCatalog, lists: [SourceTypeList]) {
        formats = lists.map { list in
            let unmapped = list.names.filter { !list.maps($0, in: catalog) }
            return Format(
                id: list.id, title: list.title, total: list.names.count, mapped: list.names.count - unmapped.count,
                unmapped: unmapped)
        }
    }
}
