"""Reads FIT files with fitdecode, an independent decoder, and counts what they hold.

    python fit_oracle.py FILE [FILE...]

A FILE is a .fit file, a gzipped .fit.gz, or a folder searched recursively for both. It prints
one JSON object, {"files": {path: {...}}}, each file's object counting every FIT file chained in
it:

    messages                      data messages by fitdecode's name
    chained                       FIT files in it (each with its own header and CRC)
    records                       record messages
    record_heart_rate_timestamps  distinct full record timestamps (see timestamps) whose
                                  heart_rate is above 0
    hrv_intervals, hrv_sum_s      valid hrv.time entries (unused slots are invalid) and their sum
    sessions                      each session's sport, sub_sport, start_time (UTC), elapsed
                                  time, distance and calories
    monitoring_steps              the increases of each activity type's cumulative steps counter
                                  (a decrease is a reset, at local midnight)
    sleep_levels                  sleep_level messages
    weight_scale_by_person        weight_scale messages by user_profile_index
    blood_pressure                blood_pressure messages
    stress_levels                 stress_level messages with a value of 0 or more
    timestamps                    first and last full timestamp (UTC), counting only those at or
                                  after 0x10000000: lower ones are seconds since the device's power-up
    layout                        how the files were written: big-endian definitions, local
                                  types defined again after their first use, and data messages
                                  with compressed-timestamp headers
    warnings                      what fitdecode warned about (malformed but readable data)

Header and file CRCs are checked (fitdecode raises on a mismatch): a file that does not read to
its end gets an "error" instead, and the exit status is 1.
"""

import datetime
import gzip
import json
import os
import sys
import warnings

import fitdecode

FIT_EPOCH = datetime.datetime(1989, 12, 31, tzinfo=datetime.timezone.utc)
# Timestamps below this count seconds from the device's power-up, not from the FIT epoch.
FIRST_FULL_TIMESTAMP = 0x10000000
# hrv.time is uint16 seconds / 1000: 0xFFFF marks an unused slot, which fitdecode turns into None.
HRV_INVALID_SECONDS = 65.535


def iso(raw):
    """A FIT timestamp (seconds since 1989-12-31 UTC) as ISO 8601 UTC."""
    return (FIT_EPOCH + datetime.timedelta(seconds=raw)).strftime("%Y-%m-%dT%H:%M:%SZ")


def raw_value(message, name):
    """The raw value of a field (a resolved subfield, a component or the message's compressed
    header timestamp included), or None when the message lacks it."""
    for field in message.fields:
        if field.name == name:
            return field.raw_value
    return None


def value(message, name):
    for field in message.fields:
        if field.name == name:
            return field.value
    return None


def enum_name(message, name):
    """An enum field's name from the profile; a number the profile lacks stays a number."""
    found = value(message, name)
    return found if found is None or isinstance(found, str) else int(found)


class Counts:
    """What one file (all its chained FIT files) holds."""

    def __init__(self):
        self.messages = {}
        self.chained = 0
        self.records = 0
        self.heart_rate_timestamps = set()
        self.hrv_intervals = 0
        self.hrv_sum_ms = 0
        self.sessions = []
        self.steps = 0
        self.step_counters = {}
        self.sleep_levels = 0
        self.weight_scale_by_person = {}
        self.blood_pressure = 0
        self.stress_levels = 0
        self.first = None
        self.last = None
        self.big_endian_definitions = 0
        self.redefinitions = 0
        self.compressed_timestamps = 0
        self.defined_locals = set()

    def header(self):
        self.chained += 1
        # Monitoring counters and local message types belong to their FIT file.
        self.step_counters = {}
        self.defined_locals = set()

    def definition(self, definition):
        if definition.endian == ">":
            self.big_endian_definitions += 1
        if definition.local_mesg_num in self.defined_locals:
            self.redefinitions += 1
        self.defined_locals.add(definition.local_mesg_num)

    def message(self, message):
        if message.time_offset is not None:
            self.compressed_timestamps += 1
        name = message.name
        self.messages[name] = self.messages.get(name, 0) + 1
        stamp = raw_value(message, "timestamp")
        if isinstance(stamp, int) and stamp >= FIRST_FULL_TIMESTAMP:
            self.first = stamp if self.first is None else min(self.first, stamp)
            self.last = stamp if self.last is None else max(self.last, stamp)
        handler = getattr(self, "on_" + name, None)
        if handler:
            handler(message, stamp)

    def on_record(self, message, stamp):
        self.records += 1
        heart_rate = value(message, "heart_rate")
        # A device-relative timestamp places the beat nowhere in time.
        if heart_rate and isinstance(stamp, int) and stamp >= FIRST_FULL_TIMESTAMP:
            self.heart_rate_timestamps.add(stamp)

    def on_hrv(self, message, stamp):
        times = value(message, "time")
        if times is None:
            return
        for seconds in times if isinstance(times, tuple) else (times,):
            if seconds is not None and seconds < HRV_INVALID_SECONDS:
                self.hrv_intervals += 1
                # Sum whole milliseconds: float sums drift in the last digit.
                self.hrv_sum_ms += round(seconds * 1000)

    def on_session(self, message, stamp):
        start = raw_value(message, "start_time")
        self.sessions.append({
            "sport": enum_name(message, "sport"),
            "sub_sport": enum_name(message, "sub_sport"),
            "start_time": iso(start) if isinstance(start, int) and start >= FIRST_FULL_TIMESTAMP else None,
            "total_elapsed_time": value(message, "total_elapsed_time"),
            "total_distance": value(message, "total_distance"),
            "total_calories": value(message, "total_calories"),
        })

    def on_monitoring(self, message, stamp):
        # fitdecode names cycles "steps" when the message's activity_type is walking or running.
        steps = value(message, "steps")
        if steps is None:
            return
        kind = value(message, "activity_type")
        previous = self.step_counters.get(kind, 0)
        self.steps += steps - previous if steps >= previous else steps
        self.step_counters[kind] = steps

    def on_sleep_level(self, message, stamp):
        self.sleep_levels += 1

    def on_weight_scale(self, message, stamp):
        person = raw_value(message, "user_profile_index")
        key = "none" if person is None else str(person)
        self.weight_scale_by_person[key] = self.weight_scale_by_person.get(key, 0) + 1

    def on_blood_pressure(self, message, stamp):
        self.blood_pressure += 1

    def on_stress_level(self, message, stamp):
        level = value(message, "stress_level_value")
        if level is not None and level >= 0:
            self.stress_levels += 1

    def report(self):
        return {
            "messages": dict(sorted(self.messages.items())),
            "chained": self.chained,
            "records": self.records,
            "record_heart_rate_timestamps": len(self.heart_rate_timestamps),
            "hrv_intervals": self.hrv_intervals,
            "hrv_sum_s": self.hrv_sum_ms / 1000,
            "sessions": self.sessions,
            "monitoring_steps": self.steps,
            "sleep_levels": self.sleep_levels,
            "weight_scale_by_person": dict(sorted(self.weight_scale_by_person.items())),
            "blood_pressure": self.blood_pressure,
            "stress_levels": self.stress_levels,
            "timestamps": {
                "first": iso(self.first) if self.first is not None else None,
                "last": iso(self.last) if self.last is not None else None,
            },
            "layout": {
                "big_endian_definitions": self.big_endian_definitions,
                "redefinitions": self.redefinitions,
                "compressed_timestamp_messages": self.compressed_timestamps,
            },
        }


def read(path):
    """One file's counts, or its counts so far and the error that stopped the read."""
    counts = Counts()
    opener = gzip.open if path.endswith(".gz") else open
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            with opener(path, "rb") as stream, fitdecode.FitReader(
                stream, check_crc=fitdecode.CrcCheck.RAISE, error_handling=fitdecode.ErrorHandling.WARN
            ) as reader:
                for frame in reader:
                    if isinstance(frame, fitdecode.FitHeader):
                        counts.header()
                    elif isinstance(frame, fitdecode.FitDefinitionMessage):
                        counts.definition(frame)
                    elif isinstance(frame, fitdecode.FitDataMessage):
                        counts.message(frame)
            error = None
        except (fitdecode.FitError, OSError, EOFError) as exc:
            error = f"{type(exc).__name__}: {exc}"
    report = counts.report()
    report["warnings"] = [str(w.message) for w in caught]
    if error:
        report["error"] = error
    return report


def fit_files(argument):
    if not os.path.isdir(argument):
        return [argument]
    found = []
    for folder, _, names in os.walk(argument):
        found += [os.path.join(folder, n) for n in names if n.lower().endswith((".fit", ".fit.gz"))]
    return sorted(found)


def main(arguments):
    if not arguments:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    files = {}
    for argument in arguments:
        for path in fit_files(argument):
            files[path] = read(path)
    print(json.dumps({"files": files}, indent=1, sort_keys=True))
    return 1 if any("error" in f for f in files.values()) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
