/// How many source colours the style sheet defines (`.s0` … `.s5`); further sources share the last.
enum ReportColours {
    static let sources = 6
}
