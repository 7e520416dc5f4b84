"""Audit reports: one row per kernel variant (PASS / FAIL with counts), details of each finding, JSON."""
import json

from .taint import KINDS


def variant_rows(vreports):
    rows = []
    for vr in vreports:
        for r in vr.reports:
            rows.append(dict(variant=vr.variant, function=r.name, ok=r.ok, findings=r.by_kind(), counts=r.counts,
                             resources=vr.resources, cubin_sha256=vr.cubin_sha256,
                             details=[f.as_dict() for f in r.findings]))
    return rows


def function_rows(reports, source):
    return [dict(variant=source, function=r.name, ok=r.ok, findings=r.by_kind(), counts=r.counts, resources={},
                 cubin_sha256=None, details=[f.as_dict() for f in r.findings]) for r in reports]


def format_table(rows, max_details=3) -> str:
    head = ["result", "variant", "instr", "loads", "gmma", "branches", "regs", "spill"] + list(KINDS)
    lines = ["  ".join(f"{h:>8}" if i >= 2 else f"{h:<44}" if i == 1 else h for i, h in enumerate(head))]
    for r in rows:
        c, res = r["counts"], r["resources"]
        cells = [("PASS" if r["ok"] else "FAIL"), r["variant"], c["instructions"], c["secret_loads"],
                 c["tensor_core"], c["branches"], res.get("regs", "-"), res.get("stack", "-")]
        cells += [r["findings"][k] for k in KINDS]
        lines.append("  ".join(f"{x:>8}" if i >= 2 else f"{x:<44}" if i == 1 else str(x) for i, x in enumerate(cells)))
        for d in r["details"][:max_details]:
            lines.append(f"      {d['kind']} at {d['addr']}: {d['instr']}   (secret {d['operand']})")
            for p in d["path"]:
                lines.append(f"          {p}")
        if len(r["details"]) > max_details:
            lines.append(f"      ... {len(r['details']) - max_details} more findings (see --json)")
    n_fail = sum(not r["ok"] for r in rows)
    lines.append(f"{len(rows) - n_fail} PASS, {n_fail} FAIL")
    return "\n".join(lines)


def to_json(rows) -> str:
    return json.dumps(dict(ok=all(r["ok"] for r in rows), rows=rows), indent=1)
