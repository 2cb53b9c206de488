import Foundation

/// One line of progress on standard error: redrawn in place on a terminal (at most ten times
/// a second), a plain line every few seconds otherwise (logs, CI). Standard output stays free
/// for the summary or `--json`.
final class StatusLine {
    /// With `--log-format json` progress goes out as log lines, never redrawn.
    private let isTerminal = isatty(STDERR_FILENO) == 1 && !LogFormat.jsonSelected.load(ordering: .relaxed)
    private var lastDraw = -Double.infinity
    private var drewLine = false

    /// Shows `line` if enough of the run's `elapsed` seconds passed since the last one shown.
    func show(_ line: String, elapsed: Double) {
        guard elapsed - lastDraw >= (isTerminal ? 0.1 : 5) else { return }
        lastDraw = elapsed
        if isTerminal {
            write("\r\u{1B}[2K" + line)
            drewLine = true
        } else {
            printError(line)
        }
    }

    /// Clears the redrawn line so what follows starts on a clean one.
    func finish() {
        if drewLine { write("\r\u{1B}[2K") }
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
