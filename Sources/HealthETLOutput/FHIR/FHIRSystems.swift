/// The code systems an exported FHIR resource names. healthetl's own are identifiers in FHIR's
/// sense (canonical URLs need not resolve): they say a code is ours, not LOINC's.
public enum FHIRSystems {
    public static let loinc = "http://loinc.org"
    public static let ucum = "http://unitsofmeasure.org"
    public static let dataAbsentReason = "http://terminology.hl7.org/CodeSystem/data-absent-reason"
    public static let observationCategory = "http://terminology.hl7.org/CodeSystem/observation-category"
    /// Catalog metric ids: every Observation carries one, beside LOINC when LOINC has the metric.
    public static let metric = "https://healthetl.dev/fhir/CodeSystem/metric"
    /// Sample flags (`out_of_plausible_range`, `summarized`, …), as `meta.tag`s.
    public static let flag = "https://healthetl.dev/fhir/CodeSystem/flag"
    /// Category values of a category set: this prefix and the set's name (`…/category/sleep_stage`).
    public static let categoryPrefix = "https://healthetl.dev/fhir/CodeSystem/category/"
    /// Where a sample came from: this prefix and the percent-encoded source name, as `meta.source`.
    public static let sourcePrefix = "urn:healthetl:source:"

    /// LOINC codes of the FHIR vital-signs profile: Observations of these get its category.
    public static let vitalSignCodes: Set<String> = [
        "85353-1", "9279-1", "8867-4", "2708-6", "59408-5", "8310-5", "8302-2", "9843-4", "29463-7", "39156-5",
        "85354-9", "8480-6", "8462-4",
    ]
}
