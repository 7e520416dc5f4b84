"""Forward, flow-sensitive taint analysis over SASS: does any secret reach control flow, an address, a
memory predicate, or a variable-latency subroutine?

Sources of taint: every value loaded from global, shared or local memory and every tensor-core
(warpgroup MMA) result, unless the kernel's declaration says a parameter's data is public. Public:
kernel parameters (constant bank), special registers, immediates, and synchronisation state (mbarrier
try-wait results: they steer spin loops by timing, not by data). A predicated instruction whose guard is
secret writes a secret value (it is a select); it does not by itself leak, because it takes the same time.
"""
import re
from dataclasses import dataclass, field

from . import sass as S

KINDS = ("branch", "memory-predicate", "address", "variable-latency")


@dataclass
class Finding:
    kind: str
    addr: int
    instr: str
    operand: str
    path: list = field(default_factory=list)  # SASS lines from the violation back to the source load

    def as_dict(self):
        return dict(kind=self.kind, addr=f"0x{self.addr:04x}", instr=self.instr, operand=self.operand,
                    path=self.path)


@dataclass
class FunctionReport:
    name: str
    counts: dict
    findings: list

    @property
    def ok(self) -> bool:
        return not self.findings

    def by_kind(self):
        out = {k: 0 for k in KINDS}
        for f in self.findings:
            out[f.kind] += 1
        return out


# The outcome of the last CTA barrier reduction (BAR.RED), read back by B2R.RESULT: a pseudo-location.
BARRIER_RESULT = S.Loc("BRED", 0)

ALL_BITS = 0xFFFFFFFF

# First kernel parameter in constant bank 0 on sm_90; below it, the driver's launch constants (grid sizes).
PARAM_BASE = 0x210

# sm_90 kernels load the global-memory descriptor (desc[URx] in LDG/STG) from this constant-bank slot.
GLOBAL_DESCRIPTOR_OFFSET = 0x208


class _State:
    """Taint facts at one program point.

    secret: loc -> witness (index of the instruction that made it secret).
    clean_when: loc -> guard key (pred Loc, negated): the loc is public whenever that guard holds. This is
        how predicated code is followed: the compiler reuses a register that held a secret for a public
        value written under @P, and reads it only under @P (or under a uniform predicate voted from P).
    implies: uniform pred -> guard key it implies (from VOTEU.ANY UPx, Py: UPx true means Py held in a
        lane that executed the guarded writes).
    origin: register -> frozenset of constant-bank offsets it derives from (pointer provenance, used only
        when some parameter's data is declared public).
    pbits: secret register -> mask of its bits known to be public. ptxas keeps public predicates as bits of a
        register that last held a secret (clear a bit with LOP3 &, set it under a public guard with LOP3 |, read
        it back with LOP3 & into a predicate): _lop3_bits follows exactly that, bit by bit.
    """
    __slots__ = ("secret", "clean_when", "implies", "origin", "pbits")

    def __init__(self, secret=None, clean_when=None, implies=None, origin=None, pbits=None):
        self.secret = secret if secret is not None else {}
        self.clean_when = clean_when if clean_when is not None else {}
        self.implies = implies if implies is not None else {}
        self.origin = origin if origin is not None else {}
        self.pbits = pbits if pbits is not None else {}

    def copy(self):
        return _State(dict(self.secret), dict(self.clean_when), dict(self.implies), dict(self.origin),
                      dict(self.pbits))

    def public_bits(self, loc, keys=()):
        """The bits of register `loc` known to be public (all of them where it is public)."""
        return ALL_BITS if not self.is_secret(loc, keys) else self.pbits.get(loc, 0)

    def is_secret(self, loc, keys=()):
        return loc in self.secret and self.clean_when.get(loc) not in keys

    def join_from(self, other) -> bool:
        changed = False
        for loc, w in other.secret.items():
            if loc not in self.secret:
                self.secret[loc] = w
                if loc in other.clean_when:
                    self.clean_when[loc] = other.clean_when[loc]
                if other.pbits.get(loc):
                    self.pbits[loc] = other.pbits[loc]
                changed = True
                continue
            if loc in self.clean_when and (loc not in other.clean_when
                                           or other.clean_when[loc] != self.clean_when[loc]):
                del self.clean_when[loc]
                changed = True
            mine = self.pbits.get(loc, 0)
            if mine & other.pbits.get(loc, 0) != mine:  # a bit is public where it is public on both paths
                if mine & other.pbits.get(loc, 0):
                    self.pbits[loc] = mine & other.pbits[loc]
                else:
                    del self.pbits[loc]
                changed = True
        for up in list(self.implies):
            if other.implies.get(up) != self.implies[up]:
                del self.implies[up]
                changed = True
        for loc, o in other.origin.items():
            old = self.origin.get(loc)
            if old is None or not o <= old:
                self.origin[loc] = o if old is None else old | o
                changed = True
        return changed


def _guard_keys(ins, st):
    """Guard conditions that hold whenever `ins` executes."""
    if ins.guard is None:
        return ()
    key = (ins.guard, ins.guard_neg)
    keys = [key]
    imp = st.implies.get(ins.guard)
    if imp is not None:
        keys.append((imp[0], imp[1] != ins.guard_neg))
    return tuple(keys)


class _Analysis:
    def __init__(self, instrs, public_param_offsets=(), jump_table=None, neutral_offsets=()):
        self.instrs = instrs
        self.succ = S.successors(instrs, jump_table)
        self.blocks, self.block_at = self._blocks()
        self.by_addr = {i.addr: i.index for i in instrs}
        self.dispatch_loads = S.dispatch_state_loads(instrs)
        # Shared-memory cells at uniform addresses that some store writes (warp-specialisation captures):
        # a load from one is public unless the cell is in secret_cells (analyse() grows that set).
        # Cells are tracked by byte, so stores and loads of different widths line up (sass.cell_bytes).
        self.cells = {i.index: S.cell_bytes(i) for i in instrs}
        self.stored_cells = set().union(*(c for i, c in self.cells.items()
                                          if c is not None and instrs[i].root in ("STS", "STL")))
        self.secret_cells = set()
        self.sub_body = S.subroutine_bodies(instrs, self.succ)
        self.public_offsets = set(public_param_offsets)
        # scalar parameters (shapes, flags) and the driver's constants below the parameters: public values
        # that enter address arithmetic (an index), but no pointer: they neither make a load public nor secret
        self.neutral_offsets = set(neutral_offsets)
        self.cause = {}  # instr index -> (loc, witness index) of its first secret source, or a source label

    def _origin_public(self, ins, st):
        """A load is public when every address register derives only from public parameters (and the
        global-memory descriptor the compiler loads from c[0x0][0x208])."""
        if not self.public_offsets:
            return False
        regs = [r for o in ins.operands for r in o.address_regs]
        origins = [st.origin.get(r, frozenset()) for r in regs]
        allowed = self.public_offsets | self.neutral_offsets | {GLOBAL_DESCRIPTOR_OFFSET}
        return bool(regs) and all(o and all(x in allowed or x < PARAM_BASE for x in o) for o in origins) \
            and any(o & self.public_offsets for o in origins)

    # -- the transfer function ------------------------------------------------------------------------
    def transfer(self, ins, st, record=False):
        root = ins.root
        keys = _guard_keys(ins, st)
        if (root == "BAR" and ".RED" in ins.opcode) or (root == "B2R" and ".RESULT" in ins.opcode):
            self._barrier_reduction(ins, st, keys, record)
            return
        srcs = [loc for o in ins.sources() for loc in o.regs + o.preds]
        if root in ("P2R", "UP2R"):  # P2R R8, PR, RZ, 0x2: only the predicates the mask selects (here P1) are read
            srcs = [loc for loc in srcs if loc.kind not in ("P", "UP") or (_p2r_mask(ins) >> loc.index) & 1]
        tainted = [loc for loc in srcs if st.is_secret(loc, keys)]
        guard_secret = ins.guard is not None and st.is_secret(ins.guard)
        cond = None  # with an unguarded, data-only instruction: dest is public whenever `cond` holds
        if root in S.SECRET_LOADS:
            cell = self.cells.get(ins.index) if root in ("LDS", "LDL") else None
            public_cell = cell is not None and cell <= self.stored_cells and not cell & self.secret_cells
            secret = not (self._origin_public(ins, st) or ins.index in self.dispatch_loads or public_cell)
            cause = "secret load"
        elif root in ("HGMMA", "QGMMA", "IGMMA", "BGMMA"):
            secret, cause = True, "tensor-core result (reads shared memory)"
        elif root in ("LDC", "ULDC"):
            # a constant-bank value is public only when its index is: a table read at a secret index
            # carries the secret (the index itself is also reported, as an address)
            idx = [loc for o in ins.sources() for loc in o.address_regs if st.is_secret(loc, keys)]
            secret, cause = bool(idx), ((idx[0], st.secret[idx[0]]) if idx else None)
        elif root in S.PUBLIC_RESULT or ins.opcode.startswith("SYNCS"):
            secret, cause = False, None
        else:
            secret = bool(tainted)
            cause = (tainted[0], st.secret[tainted[0]]) if tainted else None
            if secret and ins.guard is None:
                conds = {st.clean_when.get(loc) for loc in tainted}
                if len(conds) == 1 and None not in conds:
                    cond = conds.pop()
        if guard_secret:
            secret, cause, cond = True, (ins.guard, st.secret[ins.guard]), None
        dests = [loc for o in ins.dests() for loc in o.regs + o.preds]
        before = {loc: st.public_bits(loc) for loc in dests} if ins.guard is not None else {}
        bits_in = {loc: st.public_bits(loc, keys) for loc in srcs if loc.kind == "R"} if root == "LOP3" else {}
        for loc in dests:
            if secret:
                st.secret[loc] = ins.index
                if cond is not None:
                    st.clean_when[loc] = cond
                else:
                    st.clean_when.pop(loc, None)
            elif ins.guard is None:
                st.secret.pop(loc, None)
                st.clean_when.pop(loc, None)
            elif loc in st.secret:
                st.clean_when[loc] = keys[0]  # public whenever this guard holds
        for loc in dests:
            st.pbits.pop(loc, None)
        if secret and not guard_secret and root == "LOP3":
            self._lop3_bits(ins, st, bits_in, before)
        elif guard_secret and root == "LOP3":
            self._lop3_bits_secret_guard(ins, st, before)
        if secret and record:
            self.cause[ins.index] = cause
        # a redefined predicate invalidates the facts stated in terms of it
        redefined = {loc for loc in dests if loc.kind in ("P", "UP")}
        if redefined:
            for loc in [l for l, k in st.clean_when.items() if k[0] in redefined]:
                del st.clean_when[loc]
            for up in [u for u, k in st.implies.items() if u in redefined or k[0] in redefined]:
                del st.implies[up]
        if root == "VOTEU" and ".ANY" in ins.opcode and len(ins.operands) == 2 and ins.guard is None:
            src = ins.operands[1]
            if src.preds and not st.is_secret(src.preds[0]):
                st.implies[ins.operands[0].preds[0]] = (src.preds[0], src.text.startswith("!"))
        if self.public_offsets:
            self._track_origin(ins, st, srcs, dests)

    def _lop3_bits(self, ins, st, bits_in, before):
        """LOP3.LUT with one register, an immediate and RZ, as ptxas packs public predicates into a register that
        last held a secret (the `secret` outcome of transfer() is refined, never the reverse):
            LOP3.LUT Rd, Ra, imm, RZ, 0xc0, !PT       Rd = Ra & imm: bits outside imm are 0 (public)
            LOP3.LUT Rd, Ra, imm, RZ, 0xfc, !PT       Rd = Ra | imm: bits in imm are 1 (public)
            LOP3.LUT Pd, RZ, Ra, imm, RZ, 0xc0, !PT   Pd = (Ra & imm) != 0: public if imm's bits of Ra are
        bits_in: the public bits of the source registers before the instruction. Under a (public) guard a
        destination keeps its old value where the guard fails: a bit stays public only where it was public before
        too (`before`)."""
        ops = ins.operands
        if ".LUT" not in ins.opcode or not ops or ops[-1].text != "!PT":
            return
        pred = ops[0].is_pred
        args = ops[2:-1] if pred else ops[1:-1]
        if len(args) != 4 or (pred and ops[1].text != "RZ"):
            return
        a, b, c, lut = args
        imm, table = _immediate(b.text), _immediate(lut.text)
        if imm is None or table not in (0xc0, 0xfc) or c.text != "RZ" or len(a.regs) != 1 \
                or not re.fullmatch(r"R\d+(\.reuse)?", a.text) or (pred and table != 0xc0):
            return
        known = bits_in[a.regs[0]]
        dest = ops[0].preds[0] if pred else ops[0].regs[0]
        if pred:
            public = ALL_BITS if not imm & ~known else 0
        else:
            public = (known | (~imm & ALL_BITS)) if table == 0xc0 else (known | imm)
        public &= before.get(dest, ALL_BITS)
        if public == ALL_BITS:
            st.secret.pop(dest, None)
            st.clean_when.pop(dest, None)
        elif public and not pred:
            st.pbits[dest] = public

    def _lop3_bits_secret_guard(self, ins, st, before):
        """@P LOP3.LUT Rd, Rd, imm, RZ, 0xfc (or 0xc0), !PT under a secret guard P, in place: where P fails Rd keeps its
        value, where P holds the immediate's bits are set (0xfc) or the bits outside it cleared (0xc0), so only those
        bits depend on P; the others keep the status they had before (`before`). ptxas packs a secret predicate beside
        public ones this way (session 24). Any other form under a secret guard leaves the whole destination secret."""
        ops = ins.operands
        if ".LUT" not in ins.opcode or len(ops) != 6 or ops[-1].text != "!PT" or ops[0].is_pred:
            return
        d, a, b, c, lut = ops[:5]
        imm, table = _immediate(b.text), _immediate(lut.text)
        if imm is None or table not in (0xc0, 0xfc) or c.text != "RZ" or len(a.regs) != 1 or len(d.regs) != 1 \
                or a.regs[0] != d.regs[0] or not re.fullmatch(r"R\d+(\.reuse)?", a.text) \
                or not re.fullmatch(r"R\d+", d.text):
            return
        dest = d.regs[0]
        public = before.get(dest, 0) & ((~imm & ALL_BITS) if table == 0xfc else imm)
        if public:
            st.pbits[dest] = public

    def _barrier_reduction(self, ins, st, keys, record):
        """BAR.RED.{OR,AND,POPC} reduces a predicate over the CTA's threads; B2R.RESULT reads the outcome (a
        predicate and a register). The outcome carries the inputs' taint (any thread's), through the
        pseudo-location BARRIER_RESULT; it is not synchronisation state."""
        if ins.root == "BAR":
            srcs = [loc for o in ins.operands for loc in o.preds]
            tainted = [loc for loc in srcs if st.is_secret(loc, keys)]
            if ins.guard is not None and st.is_secret(ins.guard):
                tainted.append(ins.guard)
            if tainted:
                st.secret[BARRIER_RESULT] = ins.index
                if record:
                    self.cause[ins.index] = (tainted[0], st.secret[tainted[0]])
            elif ins.guard is None:
                st.secret.pop(BARRIER_RESULT, None)
            return
        secret = st.is_secret(BARRIER_RESULT)
        for loc in [loc for o in ins.operands for loc in o.regs + o.preds]:
            st.pbits.pop(loc, None)
            if secret:
                st.secret[loc] = ins.index
                st.clean_when.pop(loc, None)
            elif ins.guard is None:
                st.secret.pop(loc, None)
                st.clean_when.pop(loc, None)
        if secret and record:
            self.cause[ins.index] = (BARRIER_RESULT, st.secret[BARRIER_RESULT])

    def _track_origin(self, ins, st, srcs, dests):
        if ins.root in ("LDC", "ULDC"):
            off = _const_offset(ins)
            org = frozenset([off]) if off is not None else None
        else:
            org = frozenset().union(*[st.origin.get(loc, frozenset()) for loc in srcs if loc.kind in ("R", "UR")])
        for loc in dests:
            if loc.kind in ("R", "UR"):
                if org:
                    st.origin[loc] = org
                elif ins.guard is None:
                    st.origin.pop(loc, None)

    # -- fixpoint -------------------------------------------------------------------------------------
    def _blocks(self):
        """Basic blocks as (first, last) instruction indices, in address order, and the block starting at each
        leader. A block's instructions after its first have one predecessor, the instruction before, whose only
        successor they are: their states need no join, so the fixpoint keeps states at block entries only."""
        n, succ = len(self.instrs), self.succ
        npred = [0] * n
        leader = [False] * n
        for i in range(n):
            s = succ[i]
            for j in s:
                npred[j] += 1
            if not (len(s) == 1 and s[0] == i + 1):
                for j in s:
                    leader[j] = True
                if i + 1 < n:
                    leader[i + 1] = True
        starts = [i for i in range(n) if i == 0 or leader[i] or npred[i] != 1]
        blocks = [(a, b - 1) for a, b in zip(starts, starts[1:] + [n])]
        return blocks, {a: k for k, (a, _) in enumerate(blocks)}

    def run(self):
        """The states at block entries (None: unreachable), to a fixpoint."""
        self.cause = {}
        if not self.instrs:
            return []
        blocks, block_at, instrs, transfer = self.blocks, self.block_at, self.instrs, self.transfer
        entry = [None] * len(blocks)
        entry[0] = _State()
        work, on_list = [0], {0}
        while work:
            b = work.pop()
            on_list.discard(b)
            st = entry[b].copy()
            first, last = blocks[b]
            for i in range(first, last + 1):
                transfer(instrs[i], st)
            for j in self.succ[last]:
                k = block_at[j]
                if entry[k] is None:
                    entry[k] = st.copy()
                    changed = True
                else:
                    changed = entry[k].join_from(st)
                if changed and k not in on_list:
                    work.append(k)
                    on_list.add(k)
        return entry

    def walk(self, entry, visit):
        """One pass over the reachable instructions in address order from the converged block entries: visit(ins,
        state before ins), then the transfer, recording the taint causes (for the paths)."""
        instrs = self.instrs
        for b, (first, last) in enumerate(self.blocks):
            if entry[b] is None:
                continue  # unreachable
            st = entry[b].copy()
            for i in range(first, last + 1):
                visit(instrs[i], st)
                self.transfer(instrs[i], st, record=True)

    # -- checks ---------------------------------------------------------------------------------------
    def path(self, loc, witness, limit=10):
        lines, seen = [], set()
        while witness is not None and witness not in seen and len(lines) < limit:
            seen.add(witness)
            ins = self.instrs[witness]
            lines.append(f"0x{ins.addr:04x}  {ins.text}   [{loc}]")
            c = self.cause.get(witness)
            if c is None or isinstance(c, str):
                if isinstance(c, str):
                    lines.append(f"  <- source: {c}")
                break
            loc, witness = c
        return lines

    def check_instr(self, ins, st, hits_out):
        """The violations at `ins` (state st before it), as (kind, loc, witness, ins) into hits_out."""
        by_addr = self.by_addr
        root = ins.root
        keys = _guard_keys(ins, st)
        hits = []  # (kind, loc)
        in_sub = ins.index in self.sub_body
        is_mem = root in S.MEMORY or ins.opcode.startswith("SYNCS")
        if ins.guard is not None and st.is_secret(ins.guard):
            if root in S.CONTROL:
                hits.append(("branch", ins.guard))
            elif is_mem:
                hits.append(("memory-predicate", ins.guard))
        if root in S.CONTROL:
            for o in ins.operands:
                for loc in o.preds + o.regs:
                    if st.is_secret(loc, keys):
                        hits.append(("branch", loc))
        if is_mem:
            for o in ins.sources():
                if not o.address_regs:
                    for loc in o.preds:
                        if st.is_secret(loc, keys):
                            hits.append(("memory-predicate", loc))
        for o in ins.operands:
            regs = list(o.address_regs)
            if root.startswith("UTMA") or root.startswith("UBLK"):
                # TMA coordinates sit in the uniform registers that follow the named one
                regs += [S.Loc(r.kind, r.index + k) for r in o.address_regs for k in range(1, 6)]
            for loc in regs:
                if st.is_secret(loc, keys):
                    hits.append(("address", loc))
        if root == "SHFL":
            for o in ins.operands[3:5]:
                for loc in o.regs:
                    if st.is_secret(loc, keys):
                        hits.append(("address", loc))
        if root == "CALL" and ins.target in by_addr:
            read = self._callee_reads(by_addr[ins.target])
            for loc in sorted((l for l in read if st.is_secret(l, keys)), key=str):
                hits.append(("variable-latency", loc))
        seen = set()
        for kind, loc in hits:
            if in_sub or (kind == "branch" and self._skips_call(ins)):
                kind = "variable-latency"
            if (kind, loc) in seen:
                continue
            seen.add((kind, loc))
            hits_out.append((kind, loc, st.secret[loc], ins))

    def findings(self, hits):
        """Findings of check_instr's hits, with their taint paths (once the walk has recorded every cause)."""
        return [Finding(kind, ins.addr, ins.text, str(loc), self.path(loc, witness)) for kind, loc, witness, ins in hits]

    def _callee_reads(self, start):
        reads, stack, seen = set(), [start], set()
        while stack:
            j = stack.pop()
            if j in seen:
                continue
            seen.add(j)
            ins = self.instrs[j]
            for o in ins.sources():
                reads.update(o.regs)
                reads.update(o.preds)
            if ins.root != "RET":
                stack += self.succ[j]
        return reads

    def _skips_call(self, ins):
        """A conditional branch that jumps over a call: the data decides whether a slow path runs."""
        if ins.root != "BRA" or ins.target is None or ins.target <= ins.addr:
            return False
        j = ins.index + 1
        while j < len(self.instrs) and self.instrs[j].addr < ins.target:
            if self.instrs[j].root == "CALL":
                return True
            j += 1
        return False


def _immediate(text):
    """The value of an integer immediate operand (32 bits), else None."""
    m = re.fullmatch(r"(0x[0-9a-f]+|\d+)", text.strip())
    return int(m.group(1), 0) & ALL_BITS if m else None


def _p2r_mask(ins):
    """The predicate mask of P2R / UP2R (its last operand, an immediate); all predicates where it is not one."""
    mask = _immediate(ins.operands[-1].text) if ins.operands else None
    return 0x7f if mask is None else mask


def _const_offset(ins):
    for o in ins.sources():
        m = re.fullmatch(r"c\[0x0\]\[(0x[0-9a-f]+)\]", o.text)
        if m:
            return int(m.group(1), 16)
    return None


def _cell_written_with_secret(a, ins, st):
    """The fixed-address cell (uniform shared memory, a stack spill slot) that store `ins` writes with a secret value
    in state st, else None."""
    cell = a.cells.get(ins.index)
    if cell is None or ins.root not in ("STS", "STL"):
        return None
    keys = _guard_keys(ins, st)
    data = [loc for o in ins.operands if not o.address_regs for loc in o.regs]
    if any(st.is_secret(loc, keys) for loc in data) or (ins.guard is not None and st.is_secret(ins.guard)):
        return cell
    return None


def analyse(name, instrs, public_param_offsets=(), jump_table=None, neutral_offsets=()):
    # Cells are summarised flow-insensitively, because the store (default partition) and the load
    # (worker partition) sit on different paths: start with every stored cell public, mark the cells some
    # store writes with a secret, and repeat until no cell changes (the secret set only grows).
    a = _Analysis(instrs, public_param_offsets, jump_table, neutral_offsets)
    while True:
        entry = a.run()
        hits, written = [], set()

        def visit(ins, st):
            a.check_instr(ins, st, hits)
            cell = _cell_written_with_secret(a, ins, st)
            if cell:
                written.update(cell)
        a.walk(entry, visit)
        grown = a.secret_cells | written
        if grown == a.secret_cells:
            break
        a.secret_cells = grown
    findings = a.findings(hits)
    reachable = sum(last - first + 1 for (first, last), st in zip(a.blocks, entry) if st is not None)
    roots = [i.root for i in instrs]
    counts = dict(instructions=len(instrs),
                  reachable=reachable,
                  secret_loads=sum(r in S.SECRET_LOADS for r in roots),
                  tensor_core=sum(r in S.TENSOR_CORE for r in roots),
                  branches=sum(r in ("BRA", "BRX", "BRXU", "JMP", "JMX") for r in roots),
                  memory=sum(r in S.MEMORY for r in roots),
                  calls=sum(r == "CALL" for r in roots))
    return FunctionReport(name, counts, findings)


def audit_sass(text, kernel=None, public_param_offsets=(), jump_tables=None, neutral_offsets=()):
    """Audit every function (or the one named `kernel`) in cuobjdump -sass text. jump_tables: {function:
    bytes of its .nv.constant2 section}, for exact BRX targets."""
    funcs = S.parse_functions(text)
    if kernel is not None:
        if kernel not in funcs:
            raise KeyError(f"kernel {kernel!r} not in the SASS; functions: {sorted(funcs)}")
        funcs = {kernel: funcs[kernel]}
    tables = jump_tables or {}
    return [analyse(name, instrs, public_param_offsets, tables.get(name), neutral_offsets)
            for name, instrs in funcs.items()]
