/// healthetl's own version: what `--version`, the collector and the MCP server say they are.
public enum HealthETLVersion {
    public static let current = "0.1.0"
}
