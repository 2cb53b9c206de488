"""Schemathesis hooks for Tests/api-fuzz/run.sh (loaded through SCHEMATHESIS_HOOKS).

Schemathesis generates every header, query parameter and body field on its own. Against this API
that stops nearly every generated request at the first check, and the code behind it would go
untested. The hooks steer part of the traffic past those checks and keep the rest as generated;
they never touch the response checks.

- `Idempotency-Key` must equal the body's `batch_id` (else 400 batch_id_mismatch): three batches
  in four get the header set to their `batch_id`; half of those first get a unique `batch_id`, so
  fewer end as 422 idempotency_key_reused (repeated small ids) and more are stored.
- An item is stored only with a 32-hex-digit id, a catalog metric and valid times (else it is a
  per-item rejection): in half of the batches each sample and deletion gets those three, keeping
  every other generated field (value, category, offset, flags, source, ...). Their times fall
  in January 2026, and one projection query in three asks for that month.
- `Content-Encoding: zstd` with a plain JSON body is 400 invalid_zstd: three such bodies in four
  are really compressed, so the zstd path is exercised too.

Decisions hash the generated data (no randomness of their own): a run is reproducible by its seed.
"""

import hashlib
import itertools
import json
import re
import zlib

import schemathesis
import zstandard

BATCH_ID = re.compile(r"[!-~]{1,128}")
METRICS = ["step_count", "heart_rate", "sleep_analysis", "body_mass", "blood_glucose", "active_energy_burned"]
UNIQUE = itertools.count()


def _pick(data, modulus):
    """A stable choice in range(modulus) from generated data."""
    return zlib.crc32(json.dumps(data, sort_keys=True, default=str).encode()) % modulus


def _header(headers, name):
    for key, value in (headers or {}).items():
        if key.lower() == name.lower():
            return value
    return None


def _set_header(case, name, value):
    headers = {key: item for key, item in (case.headers or {}).items() if key.lower() != name.lower()}
    headers[name] = value
    case.headers = headers


def _repair_items(body):
    for kind in ("samples", "deletions"):
        items = body.get(kind)
        if not isinstance(items, list):
            continue
        for index, item in enumerate(items):
            if not isinstance(item, dict):
                continue
            seed = f"{body.get('batch_id')}/{kind}/{index}"
            item["id"] = hashlib.md5(seed.encode()).hexdigest()
            item["metric"] = METRICS[_pick(seed, len(METRICS))]
            minute = _pick(seed + "/t", 31 * 24 * 60)
            day, hour, minute = minute // 1440 + 1, minute // 60 % 24, minute % 60
            item["start"] = f"2026-01-{day:02d}T{hour:02d}:{minute:02d}:00Z"
            if kind == "samples":
                length = _pick(seed + "/len", 4)  # instant, minutes, hours, end before start
                end_hour, end_minute = hour + (length == 2) * 7, minute + (length == 1) * 9 - (length == 3)
                if end_minute < 0 or end_hour > 23 or end_minute > 59:
                    end_hour, end_minute = hour, minute
                item["end"] = f"2026-01-{day:02d}T{end_hour:02d}:{end_minute:02d}:00Z"


@schemathesis.hook
def before_call(ctx, case, kwargs):
    path = case.operation.path
    if path.startswith("/v1/projections/") and isinstance(case.query, dict):
        if _pick(case.query, 3) == 0:
            case.query = {**case.query, "from": "2026-01-01", "to": "2026-01-31"}
        return
    if path != "/v1/batches" or not isinstance(case.body, dict):
        return
    body = case.body
    batch_id = body.get("batch_id")
    if not isinstance(batch_id, str) or not BATCH_ID.fullmatch(batch_id):
        return
    choice = _pick(body, 8)
    if choice % 4 == 0:
        return  # keep the generated header
    if choice % 2 == 1:
        batch_id = f"{batch_id[:110]}-{next(UNIQUE)}"
        body["batch_id"] = batch_id
    if choice >= 4:
        _repair_items(body)
    _set_header(case, "Idempotency-Key", batch_id)


@schemathesis.serializer("application/json")
def json_or_zstd(ctx, value):
    """JSON as schemathesis sends it; zstd-compressed for most `Content-Encoding: zstd` cases."""
    if isinstance(value, bytes):
        data = value
    elif value is None:
        data = b"null"
    else:
        data = json.dumps(value, allow_nan=False, default=str).encode()
    encoding = _header(ctx.case.headers, "Content-Encoding")
    if isinstance(encoding, str) and encoding.lower() == "zstd" and _pick(data.decode(errors="replace"), 4) != 0:
        data = zstandard.ZstdCompressor().compress(data)
    return data
