/// A name a lookup table holds, and its row id there (`nil`: none yet).
struct InternedName {
    var name = ""
    var id: Int64?
}
