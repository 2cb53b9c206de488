/// HAE names a workout as the Fitness app shows it (`Outdoor Run`, `Pool Swim`,
/// `Traditional Strength Training`); the catalog's activity values are snake_case sport names.
enum HAEWorkoutActivity {
    /// Where the Fitness app's name is not the sport's own.
    private static let renamed: [String: String] = [
        "run": "running", "walk": "walking", "cycle": "cycling", "swim": "swimming", "hike": "hiking",
        "stair_stepper": "stair_climbing", "hiit": "high_intensity_interval_training", "rower": "rowing",
        "wheelchair_run": "wheelchair_run_pace", "wheelchair_walk": "wheelchair_walk_pace",
    ]
    /// Words that say where, not what.
    private static let placePrefixes = ["outdoor ", "indoor ", "pool ", "open water "]

    /// The catalog value for a workout name, `nil` when the catalog has no such sport.
    static func value(of name: String, known: (String) -> Bool) -> String? {
        var words = name.lowercased()
        for prefix in placePrefixes where words.hasPrefix(prefix) { words.removeFirst(prefix.count) }
        let snake = words.split(whereSeparator: { $0 == " " || $0 == "-" }).joined(separator: "_")
        let value = renamed[snake] ?? snake
        return known(value) ? value : nil
    }
}
