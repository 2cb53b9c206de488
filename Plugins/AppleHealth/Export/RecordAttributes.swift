/// The attributes a `Record` or `Correlation` tag carries, found in one pass over the tag: a
/// record has about ten, and looking each up by name would scan them all again and again.
struct RecordAttributes {
    var type: XMLBytes?
    var sourceName: XMLBytes?
    var sourceVersion: XMLBytes?
    var device: XMLBytes?
    var unit: XMLBytes?
    var value: XMLBytes?
    var startDate: XMLBytes?
    var endDate: XMLBytes?

    init(_ attributes: XMLAttributes) {
        attributes.forEach { name, content in
            switch name.bytes.count {
            case 4:
                if name == "type" { type = content } else if name == "unit" { unit = content }
            case 5:
                if name == "value" { value = content }
            case 6:
                // `source` is the 2014 pre-release spelling of `sourceName`.
                if name == "device" {
                    device = content
                } else if name == "source", sourceName == nil {
                    sourceName = content
                }
            case 7:
                if name == "endDate" { endDate = content }
            case 9:
                if name == "startDate" { startDate = content }
            case 10:
                if name == "sourceName" { sourceName = content }
            case 13:
                if name == "sourceVersion" { sourceVersion = content }
            default:
                break
            }
        }
    }
}
