"""Parse cuobjdump SASS into instructions with typed operands, and build the control-flow graph.

The parser knows, per opcode, which operands an instruction writes, how many consecutive registers an
operand covers (pairs for 64-bit values, quads for 128-bit loads, the accumulator fragments of the
tensor-core instructions) and which operands are memory addresses. Where an opcode is unknown it falls
back to: the first operand is written, the rest are read, one register each.
"""
import functools
import re
from dataclasses import dataclass, field
from typing import NamedTuple

# ---- operand tokens -------------------------------------------------------------------------------
_REG = re.compile(r"(?<![\w.])(U?R)(\d+|Z)(?:\.(64|128))?(?![\w])")
_PRED = re.compile(r"(?<![\w.])(!?)(U?P)([0-6]|T)(?![\w])")
_BRACKET = re.compile(r"\[([^\]]*)\]")
_MEMORY_OPERAND = re.compile(r"(g?desc)?\[")  # [R2+0x10], desc[UR4][R2.64], gdesc[UR8]; not c[bank][off]

# ---- opcode classes (by root, the text before the first '.') ---------------------------------------
CONTROL = {"BRA", "BRX", "BRXU", "JMP", "JMX", "CALL", "RET", "EXIT", "BREAK", "KILL", "WARPSYNC", "BSYNC", "BMOV"}
NO_DEST = {"ST", "STG", "STS", "STL", "STSM", "RED", "REDG", "BAR", "BRA", "BRX", "BRXU", "JMP", "JMX", "CALL", "RET",
           "EXIT", "BPT", "NOP", "MEMBAR", "FENCE", "DEPBAR", "WARPSYNC", "BSYNC", "BSSY", "ERRBAR", "CCTL",
           "YIELD", "LDGSTS", "LDGDEPBAR", "ARRIVES", "UTMALDG", "UTMASTG", "UTMAPF", "UTMAREDG",
           "UTMACMDFLUSH", "UTMACCTL", "UBLKCP", "UBLKRED", "UBLKPF", "WARPGROUP", "KILL", "BREAK",
           "NANOSLEEP", "ACQBULK", "UCGABAR_ARV", "UCGABAR_WAIT", "CGAERRBAR", "CCTLL", "SYNCS.ARRIVE"}
# Memory instructions: predicates and addresses must be public.
MEMORY = {"LDG", "STG", "LDS", "STS", "LDL", "STL", "LD", "ST", "LDSM", "STSM", "LDGSTS", "ATOM", "ATOMG",
          "ATOMS", "RED", "REDG", "CCTL", "LDC", "ULDC", "UTMALDG", "UTMASTG", "UTMAPF", "UTMAREDG", "UBLKCP",
          "UBLKRED", "UBLKPF", "SYNCS", "SULD", "SUST", "SUATOM", "SURED", "TEX", "TLD", "TLD4", "TXQ",
          "LDTRAM"}
# Loads whose results are secret by default (data from global, shared or local memory).
SECRET_LOADS = {"LDG", "LDS", "LDL", "LD", "LDSM", "ATOM", "ATOMG", "ATOMS", "SULD", "SUATOM", "TEX", "TLD",
                "TLD4"}
# Tensor-core instructions: results secret by default (they read shared memory through descriptors).
TENSOR_CORE = {"HGMMA", "QGMMA", "IGMMA", "BGMMA", "HMMA", "IMMA", "DMMA", "BMMA"}
# Predicate-first instructions that write only that predicate.
ONE_PRED_DEST = {"FCHK"}
# Public by construction: constant bank, special registers, synchronisation state.
PUBLIC_RESULT = {"LDC", "ULDC", "S2R", "S2UR", "CS2R", "LEPC", "SYNCS", "ELECT", "GETLMEMBASE"}


class Loc(NamedTuple):
    """A register or predicate: kind 'R', 'UR', 'P', 'UP'; index (Z/T = the zero/true register). A tuple, so that the
    taint analysis's many dictionary look-ups hash and compare it in C (a dataclass with a Python __hash__ took a
    quarter of an audit's time)."""
    kind: str
    index: int

    def __str__(self):
        return f"{self.kind}{self.index}"


@dataclass
class Operand:
    text: str
    regs: list = field(default_factory=list)         # Locs read or written (registers, expanded by width)
    preds: list = field(default_factory=list)        # predicate Locs (constant PT/UPT excluded)
    address_regs: list = field(default_factory=list)  # registers used inside [...] (addresses)
    is_pred: bool = False                            # the operand is a single predicate
    is_memory: bool = False                          # the operand is a memory reference [...]


@dataclass
class Instr:
    index: int
    addr: int
    text: str
    guard: object          # Loc or None
    guard_neg: bool
    opcode: str            # full opcode with modifiers, e.g. "LDG.E.128"
    operands: list
    ndest: int = 0
    target: int = None     # branch / call target address, where immediate

    @property
    def root(self) -> str:
        return self.opcode.split(".")[0]

    def dests(self):
        return self.operands[:self.ndest]

    def sources(self):
        return self.operands[self.ndest:]


_LINE = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")


def uniform_smem_cell(ins):
    """The cell of a memory access at a fixed address, or None: ("shared", offset) for a shared-memory
    access whose address uses only uniform registers and an immediate (`LDS R8, [UR6+0x24000]`,
    `STS [UR4+0x24000], R2`): such cells hold CTA-wide control values (warp-specialisation captures);
    per-thread data goes through register addresses. ("local", offset) for a register spill or fill on
    the thread's own stack (`STL [R1+0x4], R3`, `LDL R0, [R1+0x4]`; R1 is the stack pointer)."""
    if ins.root not in ("LDS", "STS", "LDL", "STL"):
        return None
    local = ins.root in ("LDL", "STL")
    for o in ins.operands:
        if o.is_memory:
            regs = o.address_regs
            if local:
                if regs != [Loc("R", 1)]:
                    return None
            elif not regs or any(r.kind != "UR" for r in regs):
                return None
            m = re.search(r"\+\s*(-?0x[0-9a-f]+)\s*\]", o.text)
            return ("local" if local else "shared", int(m.group(1), 16) if m else 0)
    return None


def access_bytes(opcode: str) -> int:
    """Bytes a shared or local load/store moves per thread, from its size modifier (4 by default)."""
    mods = opcode.split(".")[1:]
    for mod, n in (("128", 16), ("64", 8), ("U16", 2), ("S16", 2), ("U8", 1), ("S8", 1)):
        if mod in mods:
            return n
    return 4


def cell_bytes(ins):
    """The bytes of a fixed-address cell access (uniform_smem_cell) as a frozenset of (space, byte
    offset), or None: a spill `STL.64 [R1+0x10], R4` covers 0x10..0x17, so a fill `LDL R4, [R1+0x14]`
    of its upper half reads bytes that store wrote."""
    cell = uniform_smem_cell(ins)
    if cell is None:
        return None
    space, off = cell
    return frozenset((space, off + i) for i in range(access_bytes(ins.opcode)))


def _scales_by_four(ins):
    """`IMAD.SHL.U32 Rx, Ry, 0x4, RZ` or `SHF.L.U32 Rx, Ry, 0x2, RZ` (or its uniform form `USHF.L.U32 URx, URy, 0x2,
    URZ`): a jump-table index times 4 bytes."""
    ops = ins.operands
    if len(ops) < 3 or not ops[1].regs:
        return False
    return (ins.opcode.startswith("IMAD.SHL") and ops[2].text == "0x4") or \
        (ins.opcode.startswith("SHF.L.U32") and ops[2].text == "0x2" and (len(ops) < 4 or ops[3].text == "RZ")) or \
        (ins.opcode.startswith("USHF.L.U32") and ops[2].text == "0x2" and (len(ops) < 4 or ops[3].text == "URZ"))


def dispatch_state_loads(instrs):
    """Indices of the warp-specialisation dispatch loads: `LDS.U8 Ry` -> `IMAD.SHL.U32 Rx, Ry, 0x4` ->
    `LDC Rt, c[0x2][Rx]` -> `BRX Rt` (or SHF.L.U32 by 2 for the scaling), or its uniform form (session 33: ptxas
    emits it in some builds) `LDS.U8 Ry` -> `R2UR URy, Ry` -> `USHF.L.U32 URx, URy, 0x2, URZ` -> `ULDC URt,
    c[0x2][URx]` -> `BRXU URt`, with a bounds check of URy that branches away between them. Triton's runtime writes
    that byte with partition indices (constants), so it selects code by role, not by data; the auditor trusts this one
    idiom."""
    found = []
    for j, ins in enumerate(instrs):
        if ins.root not in ("BRX", "BRXU") or not ins.operands or not ins.operands[0].regs:
            continue
        want, stage = ins.operands[0].regs[0], "LDC"
        for back in range(j - 1, max(-1, j - 12), -1):
            p = instrs[back]
            writes = [loc for o in p.dests() for loc in o.regs]
            if want not in writes:
                continue
            if stage == "LDC" and p.root == ("LDC" if ins.root == "BRX" else "ULDC") and "c[0x2][" in p.text:
                want, stage = p.operands[1].address_regs[0], "SHL"
            elif stage == "SHL" and _scales_by_four(p):
                want, stage = p.operands[1].regs[0], ("LDS" if ins.root == "BRX" else "R2UR")
            elif stage == "R2UR" and p.root == "R2UR" and p.guard is None and p.operands[1].regs:
                want, stage = p.operands[1].regs[0], "LDS"
            elif stage == "LDS" and p.opcode == "LDS.U8" and p.guard is None:
                found.append(back)
                break
            else:
                break
    return set(found) | _two_state_dispatch_loads(instrs)


def _state_compare(ins, reg, zero):
    """`ISETP.NE.U32.AND Pp, PT, Ry, RZ, PT` (zero) or `ISETP.NE.U32.AND Pp, PT, Ry, 0x1, PT`: the predicate Pp, or
    None."""
    ops = ins.operands
    if ins.opcode != "ISETP.NE.U32.AND" or ins.guard is not None or len(ops) != 5 or not ops[0].preds:
        return None
    if ops[1].text != "PT" or ops[4].text != "PT" or ops[2].regs != [reg] or ops[3].text != ("RZ" if zero else "0x1"):
        return None
    return ops[0].preds[0]


def _two_state_dispatch_loads(instrs):
    """Indices of the dispatch loads of a warp specialisation whose worker warps all run one partition (session 52:
    CL_PULL's four producer warps, so that every warp reaches the cluster barrier), where Triton's switch has two
    cases and ptxas emits compares instead of a jump table: `LDS.U8 Ry` (unguarded, right after the partitions'
    `BAR.SYNC.DEFER_BLOCKING 0x1` and a base move) -> `ISETP.NE.U32.AND Pp, PT, Ry, RZ, PT` -> `@Pp BRA t`, and at t
    `ISETP.NE.U32.AND Pq, PT, Ry, 0x1, PT` -> `@!Pq EXIT` (state 0: run the partition; 1: exit). As with the jump table,
    Triton's runtime writes the byte with constants, so it selects code by role; the auditor trusts this shape only."""
    by_addr = {ins.addr: i for i, ins in enumerate(instrs)}
    found = set()
    for k, ins in enumerate(instrs):
        if ins.opcode != "LDS.U8" or ins.guard is not None or k + 2 >= len(instrs) or not ins.operands[0].regs:
            continue
        if not any(p.opcode == "BAR.SYNC.DEFER_BLOCKING" and p.operands and p.operands[0].text == "0x1"
                   for p in instrs[max(0, k - 4):k]):
            continue
        y = ins.operands[0].regs[0]
        p0, bra = _state_compare(instrs[k + 1], y, True), instrs[k + 2]
        if p0 is None or bra.root != "BRA" or bra.guard != p0 or bra.guard_neg or bra.target not in by_addr:
            continue
        t = by_addr[bra.target]
        if t + 1 >= len(instrs):
            continue
        p1, ex = _state_compare(instrs[t], y, False), instrs[t + 1]
        if p1 is not None and ex.root == "EXIT" and ex.guard == p1 and ex.guard_neg:
            found.add(k)
    return found


def parse_functions(sass: str) -> dict:
    """{function name: [Instr, ...]} from `cuobjdump -sass` text."""
    funcs, cur, name = {}, None, None
    for line in sass.splitlines():
        s = line.strip()
        if s.startswith("Function :"):
            name = s.split(":", 1)[1].strip()
            cur = funcs.setdefault(name, [])
            continue
        m = _LINE.search(line)
        if m and cur is not None:
            cur.append(parse_instruction(len(cur), int(m.group(1), 16), m.group(2)))
    return funcs


def _split_operands(s: str):
    out, depth, buf = [], 0, []
    for ch in s:
        if ch in "[{(":
            depth += 1
        elif ch in "]})":
            depth -= 1
        if ch == "," and depth == 0:
            out.append("".join(buf).strip())
            buf = []
        else:
            buf.append(ch)
    if "".join(buf).strip():
        out.append("".join(buf).strip())
    return out


def _size_width(opcode: str) -> int:
    """Registers per data operand of a memory instruction, from its size modifier."""
    mods = opcode.split(".")[1:]
    if "128" in mods:
        return 4
    if "64" in mods:
        return 2
    if "LDSM" in opcode or "STSM" in opcode:
        return 4 if mods[-1] == "4" else 2 if mods[-1] == "2" else 1
    return 1


def _gmma_widths(opcode: str):
    """(accumulator registers, A-fragment registers) of a warpgroup MMA: m64nNk16 over 128 threads."""
    m = re.search(r"\.64x(\d+)x\d+", opcode)
    n = int(m.group(1)) if m else 256
    acc = n // 2 if ".F32" in opcode or ".S32" in opcode else n // 4
    return acc, 4


def _mma_widths(opcode: str):
    """(D/C, A, B) register counts of a warp-level HMMA."""
    if "16816" in opcode or "16832" in opcode:
        d = 4 if (".F32" in opcode or ".S32" in opcode) else 2
        return d, 4, 2
    if "1688" in opcode:
        d = 4 if ".F32" in opcode else 2
        return d, 2, 1
    return 4, 4, 4


def _regs(kind, idx, width):
    if idx == "Z":
        return []  # RZ / URZ: the constant zero register
    base = int(idx)
    return [Loc(kind, base + i) for i in range(width)]


@functools.lru_cache(maxsize=1 << 16)
def _operand(text: str, width: int = 1) -> Operand:
    """One operand's registers, predicates and address registers. Cached: a binary repeats its operand texts, and
    nothing changes an Operand once parsed (instructions share them)."""
    op = Operand(text)
    in_brackets = " ".join(_BRACKET.findall(text))
    op.is_memory = bool(_MEMORY_OPERAND.match(text.lstrip("-|!~")))
    for m in _REG.finditer(text):
        w = {"64": 2, "128": 4}.get(m.group(3), width)
        locs = _regs(m.group(1), m.group(2), w)
        op.regs += locs
    for m in _REG.finditer(in_brackets):
        op.address_regs += _regs(m.group(1), m.group(2), {"64": 2, "128": 4}.get(m.group(3), 1))
    if text in ("PR", "UPR"):  # P2R / R2P (UP2R / R2UP) move predicates at once (P2R: those of its mask)
        op.preds = [Loc("UP" if text == "UPR" else "P", i) for i in range(7)]
        op.is_pred = True
    for m in _PRED.finditer(text):
        if m.group(3) != "T":
            op.preds.append(Loc(m.group(2), int(m.group(3))))
    op.is_pred = op.is_pred or bool(_PRED.fullmatch(text))
    return op


def parse_instruction(index: int, addr: int, body: str) -> Instr:
    full = body
    guard, neg = None, False
    m = re.match(r"@(!?)(U?P)([0-6T])\s+", body)
    if m:
        neg = m.group(1) == "!"
        guard = None if m.group(3) == "T" else Loc(m.group(2), int(m.group(3)))
        body = body[m.end():]
    parts = body.split(None, 1)
    opcode = parts[0]
    raw = _split_operands(parts[1]) if len(parts) > 1 else []
    root = opcode.split(".")[0]

    widths = [1] * len(raw)
    if root in MEMORY and root not in ("LDC", "ULDC"):
        w = _size_width(opcode)
        widths = [w] * len(raw)
    elif root in ("DADD", "DMUL", "DFMA", "DSETP", "DMNMX"):
        widths = [2] * len(raw)  # float64: every register operand is a pair
    elif root in ("LDC", "ULDC", "CS2R", "LEPC"):
        w = 2 if ".64" in opcode or (root in ("CS2R", "LEPC") and ".32" not in opcode) else 1
        widths = [w] * len(raw)
    elif root in ("IMAD", "UIMAD") and ".WIDE" in opcode:
        widths = [1] * len(raw)
        widths[0] = 2
        if len(raw) >= 4:
            widths[-1] = 2  # the addend of a wide multiply-add is a 64-bit pair
    elif root in ("HGMMA", "QGMMA", "IGMMA", "BGMMA"):
        acc, a = _gmma_widths(opcode)
        widths = [acc] + [a] * (len(raw) - 1)
        if len(raw) >= 3:
            widths[2] = acc  # the C operand (accumulator in), when it is a register
    elif root in ("HMMA", "IMMA", "DMMA"):
        d, a, b = _mma_widths(opcode)
        widths = [d, a, b, d][:len(raw)] + [1] * max(0, len(raw) - 4)
    elif root == "F2F" and ".F64" in opcode:
        widths = [2] * len(raw)

    operands = [_operand(t, w) for t, w in zip(raw, widths)]
    ins = Instr(index, addr, full, guard, neg, opcode, operands)
    ins.ndest = _count_dests(ins)
    if root in ("BRA", "CALL", "JMP", "BSSY") and operands:
        m2 = re.search(r"(-?0x[0-9a-f]+)\s*$", raw[-1])
        if m2 and not operands[-1].regs:
            ins.target = int(m2.group(1), 16)
    return ins


def _count_dests(ins: Instr) -> int:
    root, ops = ins.root, ins.operands
    if not ops or root in NO_DEST or ins.opcode.startswith("SYNCS.ARRIVE"):
        return 0
    if root in ("VOTE", "VOTEU"):
        return len(ops) - 1  # VOTE.ANY R0, PT, P1 / VOTEU.ANY UP1, P0: the last operand is the input
    if root in ("P2R", "UP2R"):
        return 1  # P2R R8, PR, RZ, 0x40: the predicates (PR) are read into R8, not written
    if ops[0].is_pred:
        if root in ONE_PRED_DEST or root == "SYNCS" or root == "R2P":
            return 1
        return min(2, len(ops))
    n = 1
    # Carry-out predicates right after the destination (IADD3 R1, P0, P1, ...; LEA R1, P0, ...).
    while n < len(ops) and ops[n].is_pred:
        n += 1
    return n


# ---- control-flow graph ---------------------------------------------------------------------------
def is_conditional(ins: Instr) -> bool:
    return ins.guard is not None or (ins.root in ("BRA",) and any(o.preds for o in ins.operands))


def brx_targets(ins, jump_table, by_addr):
    """Targets of `BRX Ra imm` (or `BRXU URa imm`) from the function's constant-bank-2 jump table: each 32-bit entry e
    gives e + (address of the next instruction) + imm. None where there is no table (then: anywhere)."""
    if not jump_table:
        return None
    m = re.search(r"(-?0x[0-9a-f]+)\s*$", ins.operands[0].text) if ins.operands else None
    imm = int(m.group(1), 16) if m else 0
    out = []
    for k in range(0, len(jump_table) - 3, 4):
        tgt = int.from_bytes(jump_table[k:k + 4], "little") + ins.addr + 16 + imm
        if tgt in by_addr:
            out.append(by_addr[tgt])
    return sorted(set(out)) or None


def successors(instrs, jump_table=None):
    """Instruction-level successor lists. Calls go to their target; each RET returns to every call site
    (context-insensitive, hence sound for the taint analysis); BRX goes to its jump-table entries."""
    by_addr = {i.addr: i.index for i in instrs}
    n = len(instrs)
    return_sites = [i.index + 1 for i in instrs if i.root == "CALL" and i.index + 1 < n]
    succ = []
    for ins in instrs:
        nxt = [ins.index + 1] if ins.index + 1 < n else []
        r = ins.root
        if r in ("BRA", "JMP"):
            tgt = [by_addr[ins.target]] if ins.target in by_addr else []
            succ.append(tgt + (nxt if is_conditional(ins) else []))
        elif r in ("BRX", "BRXU", "JMX"):
            tgts = brx_targets(ins, jump_table, by_addr) if r in ("BRX", "BRXU") else None
            # without a table, an indirect jump may reach any instruction (sound, imprecise)
            succ.append(tgts + (nxt if ins.guard is not None else []) if tgts else list(range(n)))
        elif r == "CALL":
            tgt = [by_addr[ins.target]] if ins.target in by_addr else []
            succ.append(tgt + (nxt if (not tgt or ins.guard is not None) else []))
        elif r == "RET":
            succ.append(return_sites + (nxt if ins.guard is not None else []))
        elif r == "EXIT" or r == "KILL":
            succ.append(nxt if ins.guard is not None else [])
        else:
            succ.append(nxt)
    return succ


def subroutine_bodies(instrs, succ):
    """Indices of instructions reachable from a CALL target without passing a RET."""
    by_addr = {i.addr: i.index for i in instrs}
    body = set()
    for ins in instrs:
        if ins.root == "CALL" and ins.target in by_addr:
            stack = [by_addr[ins.target]]
            while stack:
                j = stack.pop()
                if j in body:
                    continue
                body.add(j)
                if instrs[j].root != "RET":
                    stack += succ[j]
    return body
