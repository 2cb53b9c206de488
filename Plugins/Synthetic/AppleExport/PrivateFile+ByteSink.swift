import HealthETLZip

/// A bare export.xml or GPX file, written with the same owner-only file the zip writer uses.
extension PrivateFile: ByteSink {}
