import ArgumentParser
import HealthETLCore

/// `--from` and `--to`: a range of local days, either end left to the command's default.
struct DayRangeOptions: ParsableArguments {
    @Option(help: ArgumentHelp("First local day, YYYY-MM-DD.", valueName: "date"))
    var from: String?

    @Option(help: ArgumentHelp("Last local day, YYYY-MM-DD.", valueName: "date"))
    var to: String?

    var first: CivilDate? { from.flatMap(CivilDate.init(text:)) }
    var last: CivilDate? { to.flatMap(CivilDate.init(text:)) }

    func validate() throws {
        for (name, value) in [("--from", from), ("--to", to)] {
            if let value, CivilDate(text: value) == nil { throw ValidationError("\(name) takes a date, YYYY-MM-DD") }
        }
        if let first, let last, first > last { throw ValidationError("--from must not be after --to") }
    }
}
