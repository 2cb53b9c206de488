/// The document kind each top-level element other than records, workouts and summaries becomes.
enum DocumentKind {
    static func of(_ element: XMLBytes) -> String {
        if element == "Me" { return "characteristics" }
        if element == "ClinicalRecord" { return "clinical_record" }
        if element == "Audiogram" { return "audiogram" }
        if element == "VisionPrescription" { return "vision_prescription" }
        return "unknown_element"
    }
}
