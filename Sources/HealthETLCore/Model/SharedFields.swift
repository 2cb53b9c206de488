/// A struct's fields in one immutable heap box that every copy of the struct shares: for values
/// copied many times on a hot path (a record from reader to writer, a sample through the store and
/// the projections), where a copy of the box costs one retain and a copy of the fields one per text.
/// A change makes a new box. Equal and hashed by its fields, so the struct holding it can take its
/// own `Hashable` as synthesized.
@usableFromInline
final class SharedFields<Fields: Hashable & Sendable>: Hashable, Sendable {
    @usableFromInline let fields: Fields

    init(_ fields: Fields) {
        self.fields = fields
    }

    /// A new box with `edit` applied to a copy of these fields.
    func changed(_ edit: (inout Fields) -> Void) -> SharedFields {
        var copy = fields
        edit(&copy)
        return SharedFields(copy)
    }

    /// The fields, for the holder's `customMirror`: printed and dumped values show them, not the box.
    var children: Mirror.Children {
        Mirror(reflecting: fields).children
    }

    /// Equal fields, without comparing them when both are the same box.
    @usableFromInline static func == (lhs: SharedFields, rhs: SharedFields) -> Bool {
        lhs === rhs || lhs.fields == rhs.fields
    }

    @usableFromInline func hash(into hasher: inout Hasher) {
        hasher.combine(fields)
    }
}
