"""Validates a healthetl FHIR export with the fhir.resources R4B models and counts it back.

    python validate_fhir.py BUNDLE.json | BULK_FOLDER

Every resource is parsed by its R4B model (types, cardinalities, code and dateTime patterns);
the models leave out required value sets, so Observation.status is checked against its own.
Beyond that it checks what healthetl promises: one Patient, every Observation's subject refers
to it, every Observation has healthetl's metric coding, a LOINC coding wherever it names one in
its text, unique Observation ids, every Observation and component with a value or a
dataAbsentReason (vs-2; a panel's value is its components), and bundle entries with unique
urn:uuid full URLs. It prints one JSON object: resource counts by type, samples by healthetl
metric (a panel and each reading it holds count once each: the samples they came from), the sum
of the values per metric (to compare with another export of the same store), and the problems
found. Exit 1 when there is any problem.

    python validate_fhir.py --self-check

shows the models refuse broken resources, so a pass means something.
"""

import json
import os
import sys

from fhir.resources.R4B.bundle import Bundle
from fhir.resources.R4B.observation import Observation
from fhir.resources.R4B.patient import Patient

METRIC_SYSTEM = "https://healthetl.dev/fhir/CodeSystem/metric"
LOINC = "http://loinc.org"
OBSERVATION_STATUS = {
    "registered", "preliminary", "final", "amended", "corrected", "cancelled", "entered-in-error", "unknown",
}
MODELS = {"Observation": Observation, "Patient": Patient}


def metric_of(concept):
    codes = [c["code"] for c in concept.get("coding", []) if c.get("system") == METRIC_SYSTEM]
    return codes[0] if len(codes) == 1 else None


class Tally:
    def __init__(self):
        self.by_type = {}
        self.by_metric = {}
        self.value_sums = {}
        self.ids = set()
        self.problems = []
        self.patients = []
        self.subjects = set()

    def problem(self, text):
        if len(self.problems) < 50:
            self.problems.append(text)

    def resource(self, resource, where):
        kind = resource.get("resourceType")
        model = MODELS.get(kind)
        if model is None:
            return self.problem(f"{where}: unexpected resource type {kind!r}")
        try:
            model.model_validate(resource)
        except Exception as error:  # pydantic's ValidationError, with every field it refused
            return self.problem(f"{where}: {kind} {resource.get('id')!r} is not valid R4B: {error}")
        self.by_type[kind] = self.by_type.get(kind, 0) + 1
        if kind == "Patient":
            self.patients.append(resource)
            return
        if resource.get("status") not in OBSERVATION_STATUS:
            self.problem(f"{where}: Observation status {resource.get('status')!r} is not in its required value set")
        if resource["id"] in self.ids:
            self.problem(f"{where}: a second Observation {resource['id']}")
        self.ids.add(resource["id"])
        self.subjects.add(resource.get("subject", {}).get("reference"))
        parts = [(resource, True)] + [(c, False) for c in resource.get("component", [])]
        for part, whole in parts:
            concept = part["code"]
            metric = metric_of(concept)
            if metric is None:
                self.problem(f"{where}: Observation {resource['id']} has no healthetl metric coding")
                continue
            has_loinc = any(c.get("system") == LOINC for c in concept.get("coding", []))
            if has_loinc == ("no LOINC code" in concept.get("text", "")):
                self.problem(f"{where}: Observation {resource['id']} says the wrong thing about LOINC")
            has_value = any(key.startswith("value") for key in part) or "dataAbsentReason" in part
            if not has_value and not (whole and part.get("component")):
                self.problem(f"{where}: Observation {resource['id']} ({metric}) has neither a value nor a reason")
            if "dataAbsentReason" in part:
                # A reading a panel lacks is no sample: it is not counted.
                if not whole:
                    continue
            else:
                quantity = part.get("valueQuantity")
                if quantity is not None:
                    self.value_sums[metric] = self.value_sums.get(metric, 0.0) + float(quantity["value"])
            self.by_metric[metric] = self.by_metric.get(metric, 0) + 1


def bundle(path, tally):
    with open(path, encoding="utf-8") as file:
        document = json.load(file)
    try:
        Bundle.model_validate({**document, "entry": []})
    except Exception as error:
        tally.problem(f"{path}: the Bundle itself is not valid R4B: {error}")
    if document.get("type") != "collection":
        tally.problem(f"{path}: Bundle.type is {document.get('type')!r}, not collection")
    urls = set()
    for index, entry in enumerate(document.get("entry", [])):
        url = entry.get("fullUrl", "")
        if not url.startswith("urn:uuid:") or url in urls:
            tally.problem(f"{path} entry {index}: full URL {url!r} is not a unique urn:uuid")
        urls.add(url)
        tally.resource(entry["resource"], f"{path} entry {index}")
    patient_urls = {e["fullUrl"] for e in document.get("entry", []) if e["resource"].get("resourceType") == "Patient"}
    return patient_urls


def bulk(folder, tally):
    for name in sorted(os.listdir(folder)):
        kind = name.removesuffix(".ndjson")
        with open(os.path.join(folder, name), encoding="utf-8") as file:
            for number, line in enumerate(file, 1):
                resource = json.loads(line)
                if resource.get("resourceType") != kind:
                    tally.problem(f"{name}:{number}: a {resource.get('resourceType')} in the {kind} file")
                tally.resource(resource, f"{name}:{number}")
    return {f"Patient/{p['id']}" for p in tally.patients}


def self_check():
    good = {
        "resourceType": "Observation", "status": "final", "code": {"coding": [{"system": LOINC, "code": "8867-4"}]},
        "effectiveDateTime": "2024-03-01T07:30:00+01:00", "valueQuantity": {"value": 72, "code": "/min"},
    }
    broken = [
        {**good, "effectiveDateTime": "2024-03-01 07:30"},  # not a FHIR dateTime
        {**good, "valueQuantity": {"value": "seventy"}},  # not a decimal
        {k: v for k, v in good.items() if k != "code"},  # code is required
    ]
    Observation.model_validate(good)
    for resource in broken:
        try:
            Observation.model_validate(resource)
        except Exception:
            continue
        print(f"self-check: the models accepted a broken Observation: {resource}")
        return 1
    print("self-check: the R4B models refuse broken Observations")
    return 0


def main():
    if sys.argv[1:] == ["--self-check"]:
        return self_check()
    path = sys.argv[1]
    tally = Tally()
    patients = bulk(path, tally) if os.path.isdir(path) else bundle(path, tally)
    if len(tally.patients) != 1:
        tally.problem(f"{len(tally.patients)} Patients, not one")
    if tally.subjects - patients:
        tally.problem(f"Observations refer to {sorted(tally.subjects - patients)}, not the Patient {sorted(patients)}")
    print(json.dumps({
        "by_type": tally.by_type, "by_metric": tally.by_metric, "value_sums": tally.value_sums,
        "problems": tally.problems,
    }))
    return 1 if tally.problems else 0


if __name__ == "__main__":
    sys.exit(main())
