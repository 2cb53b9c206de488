import HealthETLTestSupport
import Testing

/// Every test of this target that reads the public real exports in `../shared/real-exports`,
/// nested here so that without them (a clean clone) they are skipped as one group. Each check
/// also runs on `ExportQuirksFixture` in the suite it came from, so no path goes untested.
@Suite(.enabled(if: RealExports.isAvailable, Comment(rawValue: RealExports.missingReason)))
enum RealExportTests {}
