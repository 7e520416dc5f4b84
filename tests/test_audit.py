"""The constant-time auditor: parser and taint rules on hand-written SASS, the planted-leak corpus, and
the audit of every shipped variant (the CI gate). Compiling needs a process without TRITON_INTERPRET=1,
so those parts run in subprocesses."""
import json
import os
import subprocess
import sys
import time

import pytest

from dhpfa.audit import sass as S
from dhpfa.audit.taint import audit_sass

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _env():
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    env["PYTHONPATH"] = os.pathsep.join([os.path.join(ROOT, "src"), ROOT, env.get("PYTHONPATH", "")])
    return env


def _sass(*lines):
    body = "\n".join(f"        /*{i * 16:04x}*/                   {ln} ;" for i, ln in enumerate(lines))
    return f"\tcode for sm_90a\n\t\tFunction : k\n{body}\n"


def _kinds(*lines):
    (rep,) = audit_sass(_sass(*lines))
    return rep.by_kind(), rep


# ---- parser ----------------------------------------------------------------------------------------
def test_parse_widths_and_dests():
    funcs = S.parse_functions(_sass(
        "LDG.E.128 R4, desc[UR4][R2.64]",
        "HGMMA.64x128x16.F32.BF16 R24, gdesc[UR8], R24, gsb0",
        "IMAD.WIDE.U32 R2, R9, 0x4, R2",
        "ISETP.GE.AND P0, PT, R7, UR4, PT",
        "IADD3 R1, P0, P1, R2, R3, RZ",
        "VOTEU.ANY UP1, P0",
        "@!P2 BRA 0x0",
        "LDSM.16.M88.4 R8, [R3+0x100]"))
    ins = funcs["k"]
    assert [str(r) for r in ins[0].dests()[0].regs] == ["R4", "R5", "R6", "R7"]
    assert [str(r) for r in ins[0].operands[1].address_regs] == ["UR4", "R2", "R3"]
    assert len(ins[1].dests()[0].regs) == 64 and ins[1].operands[1].address_regs[0] == S.Loc("UR", 8)
    assert [str(r) for r in ins[2].dests()[0].regs] == ["R2", "R3"]
    assert ins[3].ndest == 2 and ins[4].ndest == 3 and ins[5].ndest == 1
    assert ins[6].guard == S.Loc("P", 2) and ins[6].guard_neg and ins[6].target == 0
    assert len(ins[7].dests()[0].regs) == 4
    succ = S.successors(ins)
    assert succ[6] == [0, 7]  # conditional: target and fall-through


# ---- taint rules on hand-written SASS ----------------------------------------------------------------
LOAD = ["ULDC.64 UR4, c[0x0][0x208]", "LDC.64 R2, c[0x0][0x210]", "LDG.E R5, desc[UR4][R2.64]"]


def test_branch_on_loaded_value_is_flagged_with_path():
    kinds, rep = _kinds(*LOAD, "FSETP.GT.AND P0, PT, R5, RZ, PT", "@P0 BRA 0x70", "EXIT", "EXIT")
    assert kinds["branch"] == 1
    path = rep.findings[0].path
    assert "FSETP" in path[0] and "LDG" in path[1] and "secret load" in path[-1]


def test_select_on_secret_is_fine():
    kinds, _ = _kinds(*LOAD, "FSETP.GT.AND P0, PT, R5, RZ, PT", "FSEL R6, R5, RZ, P0",
                      "@P0 FMUL R6, R6, 2", "STG.E desc[UR4][R2.64], R6", "EXIT")
    assert not any(kinds.values())


def test_secret_address_and_store_predicate():
    kinds, _ = _kinds(*LOAD, "IMAD.WIDE R8, R5, 0x4, R2", "LDG.E R9, desc[UR4][R8.64]",
                      "ISETP.NE.AND P1, PT, R5, RZ, PT", "@P1 STG.E desc[UR4][R2.64], R9", "EXIT")
    assert kinds["address"] >= 1 and kinds["memory-predicate"] == 1


def test_overwritten_register_is_clean_again():
    kinds, _ = _kinds(*LOAD, "MOV R5, 0x10", "ISETP.GT.AND P0, PT, R5, RZ, PT", "@P0 BRA 0x60", "EXIT", "EXIT")
    assert not any(kinds.values())


def test_register_reused_under_guard_then_voted_uniform_predicate():
    # The pattern the compiler emits for TMA coordinates: a register that held a secret is overwritten
    # under @P0 and read only under @P0 or a uniform predicate voted from P0.
    common = [*LOAD, "ISETP.GT.AND P0, PT, R2, 0x1, PT", "@P0 IADD3 R5, R2, 0x40, RZ", "IMAD.U32 R6, RZ, RZ, R5"]
    ok, _ = _kinds(*common, "@P0 R2UR UR9, R6", "VOTEU.ANY UP1, P0", "@UP1 UTMALDG.2D [UR8], [UR10]", "EXIT")
    assert not any(ok.values())
    bad, _ = _kinds(*common, "@!P0 R2UR UR9, R6", "VOTEU.ANY UP1, P0", "@UP1 UTMALDG.2D [UR8], [UR10]", "EXIT")
    assert bad["address"] >= 1
    redefined, _ = _kinds(*common, "ISETP.GT.AND P0, PT, R2, 0x2, PT", "@P0 R2UR UR9, R6",
                          "@P0 UTMALDG.2D [UR8], [UR10]", "EXIT")
    assert redefined["address"] >= 1


def test_sync_state_may_steer_spin_loop_but_votes_keep_secrets():
    kinds, _ = _kinds("SYNCS.PHASECHK.TRANS64.TRYWAIT P0, [UR4+0x10], R3", "@!P0 BRA 0x0", "EXIT")
    assert not any(kinds.values())
    kinds, _ = _kinds(*LOAD, "FSETP.GT.AND P0, PT, R5, RZ, PT", "VOTE.ANY R7, PT, P0",
                      "ISETP.NE.AND P1, PT, R7, RZ, PT", "@P1 BRA 0x80", "EXIT")
    assert kinds["branch"] == 1


def test_p2r_reads_the_predicates_it_packs():
    # P2R packs predicates into a register: a secret predicate makes the register secret, and the predicates
    # are not rewritten (before, PR counted as a destination and every predicate came out public)
    instrs = S.parse_functions(_sass("P2R R8, PR, RZ, 0x40", "EXIT"))["k"]
    assert instrs[0].ndest == 1
    kinds, _ = _kinds(*LOAD, "FSETP.GT.AND P1, PT, R5, RZ, PT", "P2R R8, PR, RZ, 0x2", "@P1 BRA 0x80", "EXIT")
    assert kinds["branch"] == 1
    kinds, _ = _kinds(*LOAD, "FSETP.GT.AND P1, PT, R5, RZ, PT", "P2R R8, PR, RZ, 0x2",
                      "ISETP.NE.AND P2, PT, R8, RZ, PT", "@P2 BRA 0x90", "EXIT")
    assert kinds["branch"] == 1
    # ... only the predicates its mask selects: P1 secret, mask 0x1 packs P0 alone
    kinds, _ = _kinds(*LOAD, "FSETP.GT.AND P1, PT, R5, RZ, PT", "P2R R8, PR, RZ, 0x1",
                      "ISETP.NE.AND P2, PT, R8, RZ, PT", "@P2 BRA 0x90", "EXIT")
    assert not any(kinds.values())


# ptxas keeps public predicates as bits of a register that last held a secret (seen in the D=256 split builds,
# session 15): clear the bit, set it under a public guard, read it back into a predicate
_PACK = ["S2R R6, SR_TID.X", "ISETP.GE.AND P0, PT, R6, 0x4, PT", "LOP3.LUT R5, R5, 0xfffffffe, RZ, 0xc0, !PT",
         "@P0 LOP3.LUT R5, R5, 0x1, RZ, 0xfc, !PT"]


def test_public_bits_packed_in_a_secret_register_stay_public():
    # bits: 0x0 LDC, 0x10 LDC, 0x20 LDG (R5 secret), 0x30 S2R, 0x40 ISETP, 0x50 clear bit 0, 0x60 set it under P0
    kinds, _ = _kinds(*LOAD, *_PACK, "LOP3.LUT P1, RZ, R5, 0x1, RZ, 0xc0, !PT", "@P1 LDG.E R7, desc[UR4][R2.64]",
                      "@!P1 BRA 0xa0", "EXIT", "EXIT")
    assert not any(kinds.values())
    # ... and the register as a whole is still secret
    kinds, _ = _kinds(*LOAD, *_PACK, "ISETP.NE.AND P1, PT, R5, RZ, PT", "@P1 BRA 0x90", "EXIT", "EXIT")
    assert kinds["branch"] == 1


@pytest.mark.parametrize("body", [
    # a bit that was never cleared: the secret's own bit 1
    ["LOP3.LUT P1, RZ, R5, 0x2, RZ, 0xc0, !PT"],
    # bit 0 together with a secret bit
    ["LOP3.LUT P1, RZ, R5, 0x3, RZ, 0xc0, !PT"],
    # set under a public guard without clearing first: where P0 fails, bit 0 is the secret's
    ["LOP3.LUT R5, R5, 0x2, RZ, 0xfc, !PT", "@P0 LOP3.LUT R5, R5, 0x1, RZ, 0xfc, !PT",
     "LOP3.LUT P1, RZ, R5, 0x1, RZ, 0xc0, !PT"],
    # cleared, then set under a secret guard
    ["FSETP.GT.AND P2, PT, R5, RZ, PT", "LOP3.LUT R5, R5, 0xfffffffe, RZ, 0xc0, !PT",
     "@P2 LOP3.LUT R5, R5, 0x1, RZ, 0xfc, !PT", "LOP3.LUT P1, RZ, R5, 0x1, RZ, 0xc0, !PT"],
    # cleared, then a secret added back in (not the LOP3 forms followed bit by bit)
    ["LOP3.LUT R5, R5, 0xfffffffe, RZ, 0xc0, !PT", "IADD3 R5, R5, R5, RZ", "LOP3.LUT P1, RZ, R5, 0x1, RZ, 0xc0, !PT"],
    # XOR with a secret bit
    ["LOP3.LUT R6, RZ, 0x0, RZ, 0xc0, !PT", "LOP3.LUT R5, R5, 0xfffffffe, RZ, 0xc0, !PT",
     "LOP3.LUT R5, R5, R5, RZ, 0x3c, !PT", "LOP3.LUT P1, RZ, R5, 0x1, RZ, 0xc0, !PT"],
])
def test_secret_bits_read_back_from_a_register_are_flagged(body):
    kinds, _ = _kinds(*LOAD, "S2R R6, SR_TID.X", "ISETP.GE.AND P0, PT, R6, 0x4, PT", *body,
                      f"@P1 BRA 0x{(5 + len(body) + 2) * 16:x}", "EXIT", "EXIT")
    assert kinds["branch"] == 1


# A secret predicate packed beside public ones, in place, under a secret guard (session 24: ptxas put div.full.f32's
# range check, P2 here, into the register of a merge's row-mask bits): bits 0 and 1 cleared, bit 0 set under the
# public P0, then bit 1 set (OR) or the bits outside bit 0 cleared (AND) under the secret P2
_SECRET_GUARD = ["S2R R6, SR_TID.X", "ISETP.GE.AND P0, PT, R6, 0x4, PT", "FSETP.GT.AND P2, PT, R5, RZ, PT",
                 "LOP3.LUT R5, R5, 0xfffffffc, RZ, 0xc0, !PT", "@P0 LOP3.LUT R5, R5, 0x1, RZ, 0xfc, !PT"]


@pytest.mark.parametrize("update,bit,secret", [
    ("@P2 LOP3.LUT R5, R5, 0x2, RZ, 0xfc, !PT", 0x1, False),  # OR: the bits outside the immediate keep their status
    ("@P2 LOP3.LUT R5, R5, 0x2, RZ, 0xfc, !PT", 0x2, True),   # ... the immediate's bit now depends on P2
    ("@P2 LOP3.LUT R5, R5, 0x1, RZ, 0xc0, !PT", 0x1, False),  # AND: the immediate's bits keep their status
    ("@P2 LOP3.LUT R5, R5, 0x1, RZ, 0xc0, !PT", 0x4, True),   # ... the bits outside it depend on P2
    ("@P2 LOP3.LUT R8, R5, 0x2, RZ, 0xfc, !PT", 0x1, True),   # not in place: R8 is R5 | 2 or its old value, by P2
])
def test_in_place_bit_updates_under_a_secret_guard(update, bit, secret):
    dest = "R8" if "R8," in update else "R5"
    kinds, _ = _kinds(*LOAD, *_SECRET_GUARD, update, f"LOP3.LUT P1, RZ, {dest}, {bit:#x}, RZ, 0xc0, !PT",
                      "@P1 LDG.E R7, desc[UR4][R2.64]", "EXIT")
    assert kinds["memory-predicate"] == (1 if secret else 0), kinds


def test_public_bits_meet_secret_bits_at_a_join():
    # one path clears bit 0 (public), the other jumps past it with R5 whole (secret): after the join, secret
    kinds, _ = _kinds(*LOAD, "S2R R6, SR_TID.X", "ISETP.GE.AND P0, PT, R6, 0x4, PT", "@P0 BRA 0x70",
                      "LOP3.LUT R5, R5, 0xfffffffe, RZ, 0xc0, !PT", "LOP3.LUT P1, RZ, R5, 0x1, RZ, 0xc0, !PT",
                      "@P1 BRA 0xa0", "EXIT", "EXIT")
    assert kinds["branch"] == 1


def test_barrier_reduction_carries_the_taint_of_its_predicates():
    # bar.red.or over the CTA, read back with B2R.RESULT: a secret predicate stays secret through it
    kinds, _ = _kinds(*LOAD, "FSETP.GT.AND P1, PT, R5, RZ, PT", "BAR.RED.OR.DEFER_BLOCKING 0xc, 0x80, P1",
                      "B2R.RESULT RZ, P1", "@!P1 BRA 0x80", "EXIT")
    assert kinds["branch"] == 1
    # ... and a public one (a thread index) stays public
    kinds, _ = _kinds(*LOAD, "S2R R6, SR_TID.X", "ISETP.EQ.AND P1, PT, R6, RZ, PT",
                      "BAR.RED.OR.DEFER_BLOCKING 0xc, 0x80, P1", "B2R.RESULT RZ, P1", "@!P1 BRA 0x80", "EXIT")
    assert not any(kinds.values())


def _dispatch(index_load, scale="IMAD.SHL.U32 R5, R2, 0x4, RZ"):
    # entry dispatch as Triton's warp_specialize emits it; targets 0x90 and 0xa0 via the jump table
    return _sass("S2UR UR5, SR_CgaCtaId", "ULDC.64 UR4, c[0x0][0x208]", "LDC.64 R2, c[0x0][0x210]",
                 index_load, scale, "LDC R2, c[0x2][R5]", "BRX R2 -0x70",
                 "EXIT", "EXIT", "MOV R7, 0x1", "EXIT")


def test_brx_goes_to_its_jump_table_entries():
    instrs = S.parse_functions(_dispatch("LDS.U8 R2, [UR5+0x1401c]"))["k"]
    table = (0x90).to_bytes(4, "little") + (0xa0).to_bytes(4, "little")
    assert S.successors(instrs, table)[6] == [9, 10]
    assert len(S.successors(instrs)[6]) == len(instrs), "without a table: anywhere"


def test_partition_dispatch_is_public_but_a_data_switch_is_not():
    table = {"k": (0x90).to_bytes(4, "little") + (0xa0).to_bytes(4, "little")}
    for scale in ("IMAD.SHL.U32 R5, R2, 0x4, RZ", "SHF.L.U32 R5, R2, 0x2, RZ"):
        (ok,) = audit_sass(_dispatch("LDS.U8 R2, [UR5+0x1401c]", scale), jump_tables=table)
        assert ok.ok, [f.instr for f in ok.findings]
    (odd,) = audit_sass(_dispatch("LDS.U8 R2, [UR5+0x1401c]", "SHF.L.U32 R5, R2, 0x3, RZ"), jump_tables=table)
    assert not odd.ok, "only the x4 table index is the dispatch idiom"
    (bad,) = audit_sass(_dispatch("LDG.E.U8 R2, desc[UR4][R2.64]"), jump_tables=table)
    assert bad.by_kind()["branch"] >= 1 and any("BRX" in f.instr for f in bad.findings)


def _dispatch_uniform(index_load, scale="USHF.L.U32 UR4, UR4, 0x2, URZ"):
    # the uniform form ptxas emitted in session 33's paged local builds at D=256: the byte moved to a uniform register,
    # a bounds check that branches back, then ULDC from the jump table and BRXU; targets 0xe0 and 0xf0
    return _sass("S2UR UR5, SR_CgaCtaId", "ULDC.64 UR6, c[0x0][0x208]", "LDC.64 R2, c[0x0][0x210]", index_load,
                 "R2UR UR4, R0", "UISETP.GT.U32.AND UP0, UPT, UR4, 0x4, UPT", "PLOP3.LUT P0, PT, PT, PT, UP0, 0x80, 0x0",
                 "@P0 BRA 0x30", scale, "ULDC UR4, c[0x2][UR4]", "USHF.R.S32.HI UR5, URZ, 0x1f, UR4",
                 "BRXU UR4 -0xc0", "EXIT", "EXIT", "MOV R7, 0x1", "EXIT")


def test_uniform_partition_dispatch_is_public_and_goes_to_its_table():
    table = (0xe0).to_bytes(4, "little") + (0xf0).to_bytes(4, "little")
    instrs = S.parse_functions(_dispatch_uniform("LDS.U8 R0, [R0+UR5+0x30194]"))["k"]
    assert S.successors(instrs, table)[11] == [14, 15], "BRXU goes to its jump-table entries"
    assert len(S.successors(instrs)[11]) == len(instrs), "without a table: anywhere"
    (ok,) = audit_sass(_dispatch_uniform("LDS.U8 R0, [R0+UR5+0x30194]"), jump_tables={"k": table})
    assert ok.ok, [f.instr for f in ok.findings]
    (odd,) = audit_sass(_dispatch_uniform("LDS.U8 R0, [R0+UR5+0x30194]", "USHF.L.U32 UR4, UR4, 0x3, URZ"),
                        jump_tables={"k": table})
    assert not odd.ok, "only the x4 table index is the dispatch idiom"
    (bad,) = audit_sass(_dispatch_uniform("LDG.E.U8 R0, desc[UR6][R2.64]"), jump_tables={"k": table})
    assert bad.by_kind()["branch"] >= 1 and any("BRXU" in f.instr for f in bad.findings)


def _dispatch_two(index_load, first="ISETP.NE.U32.AND P0, PT, R2, RZ, PT", then="ISETP.NE.U32.AND P0, PT, R2, 0x1, PT"):
    # session 52: every worker warp in one partition (CL_PULL's four producer warps), so Triton's switch has two cases
    # (run the partition, exit) and ptxas emits compares: state 0 falls through to the partition, else at 0x80 state 1
    # exits
    return _sass("S2UR UR4, SR_CgaCtaId", "BAR.SYNC.DEFER_BLOCKING 0x1", "IMAD.U32 R2, RZ, RZ, UR5", index_load, first,
                 "@P0 BRA 0x80", "MOV R7, 0x1", "EXIT", then, "@!P0 EXIT", "BAR.SYNC.DEFER_BLOCKING 0x1", "EXIT")


def test_two_state_partition_dispatch_is_public_but_a_data_compare_is_not():
    (ok,) = audit_sass(_dispatch_two("LDS.U8 R2, [R2+UR24+0x24124]"))
    assert ok.ok, [f.instr for f in ok.findings]
    (bad,) = audit_sass(_dispatch_two("LDG.E.U8 R2, desc[UR4][R2.64]"))
    assert bad.by_kind()["branch"] >= 1, "a byte from global memory is data"
    (other,) = audit_sass(_dispatch_two("LDS.U8 R2, [R2+UR24+0x24124]", first="ISETP.NE.U32.AND P0, PT, R2, 0x7, PT"))
    assert not other.ok, "only the compare with 0 then 1 is the dispatch shape"
    (no_exit,) = audit_sass(_dispatch_two("LDS.U8 R2, [R2+UR24+0x24124]", then="ISETP.NE.U32.AND P0, PT, R2, 0x2, PT"))
    assert not no_exit.ok, "state 1 must be the exit"
    no_bar = _dispatch_two("LDS.U8 R2, [R2+UR24+0x24124]").replace("BAR.SYNC.DEFER_BLOCKING 0x1 ;", "NOP ;", 1)
    (unsynced,) = audit_sass(no_bar)
    assert not unsynced.ok, "the load follows the partitions' barrier"


def test_capture_cells_public_only_when_every_store_is_public():
    # A worker partition reads a trip count its default partition stored at a uniform shared address.
    def kernel(store_value_from):
        return _sass(*LOAD, "S2UR UR4, SR_CgaCtaId", store_value_from, "STS [UR4+0x24000], R9",
                     "LDS R8, [UR6+0x24000]", "ISETP.GE.AND P0, PT, R8, 0x1, PT", "@!P0 BRA 0xb0", "EXIT", "EXIT")
    (ok,) = audit_sass(kernel("MOV R9, 0x10"))
    assert ok.ok, [f.instr for f in ok.findings]
    (bad,) = audit_sass(kernel("IADD3 R9, R5, 0x1, RZ"))  # R5 came from global memory
    assert bad.by_kind()["branch"] == 1
    (unwritten,) = audit_sass(_sass("LDS R8, [UR6+0x24000]", "ISETP.GE.AND P0, PT, R8, 0x1, PT", "@!P0 BRA 0x40",
                                    "EXIT", "EXIT"))
    assert unwritten.by_kind()["branch"] == 1, "a cell no store writes (TMA data, say) stays secret"
    (per_thread,) = audit_sass(_sass("MOV R9, 0x10", "STS [R2+UR4+0x24000], R9", "LDS R8, [R2+UR6+0x24000]",
                                     "ISETP.GE.AND P0, PT, R8, 0x1, PT", "@!P0 BRA 0x60", "EXIT", "EXIT"))
    assert per_thread.by_kind()["branch"] == 1, "register-addressed shared memory is data"


def test_stack_spill_slots_carry_the_taint_of_what_was_spilled():
    # ptxas spills kernel-entry values before a partition's setmaxnreg and fills them later (seen in the
    # persistent Gluon kernel): a fill is public only when every spill to that slot is.
    def kernel(spilled):
        return _sass(*LOAD, spilled, "STL [R1+0x4], R9", "MOV R9, RZ", "LDL R8, [R1+0x4]",
                     "ISETP.GE.AND P0, PT, R8, 0x1, PT", "@!P0 BRA 0xb0", "EXIT", "EXIT")
    (ok,) = audit_sass(kernel("MOV R9, 0x10"))
    assert ok.ok, [f.instr for f in ok.findings]
    (bad,) = audit_sass(kernel("IADD3 R9, R5, 0x1, RZ"))  # R5 came from global memory
    assert bad.by_kind()["branch"] == 1
    (other_slot,) = audit_sass(_sass("MOV R9, 0x10", "STL [R1+0x8], R9", "LDL R8, [R1+0x4]",
                                     "ISETP.GE.AND P0, PT, R8, 0x1, PT", "@!P0 BRA 0x60", "EXIT", "EXIT"))
    assert other_slot.by_kind()["branch"] == 1, "a slot no spill writes stays secret"
    (indexed,) = audit_sass(_sass("MOV R9, 0x10", "STL [R2+0x4], R9", "LDL R8, [R2+0x4]",
                                  "ISETP.GE.AND P0, PT, R8, 0x1, PT", "@!P0 BRA 0x60", "EXIT", "EXIT"))
    assert indexed.by_kind()["branch"] == 1, "a local array indexed by a register is data"


def test_spill_slots_are_tracked_by_byte():
    # ptxas spills two values with one STL.64 and fills the upper one alone (seen in the D=256 Gluon kernel)
    def kernel(hi, fill):
        return _sass(*LOAD, "MOV R8, 0x10", hi, "STL.64 [R1+0x10], R8", fill,
                     "ISETP.GE.AND P0, PT, R4, 0x1, PT", "@!P0 BRA 0xb0", "EXIT", "EXIT")
    (ok,) = audit_sass(kernel("MOV R9, 0x20", "LDL R4, [R1+0x14]"))
    assert ok.ok, [f.instr for f in ok.findings]
    (bad,) = audit_sass(kernel("IADD3 R9, R5, 0x1, RZ", "LDL R4, [R1+0x14]"))  # R5 came from global memory
    assert bad.by_kind()["branch"] == 1
    (past,) = audit_sass(kernel("MOV R9, 0x20", "LDL R4, [R1+0x18]"))
    assert past.by_kind()["branch"] == 1, "bytes past the spill were never written"
    (wide,) = audit_sass(kernel("MOV R9, 0x20", "LDL.64 R4, [R1+0x14]"))
    assert wide.by_kind()["branch"] == 1, "a fill that reaches past the written bytes stays secret"


def test_tensor_core_results_are_secret():
    kinds, _ = _kinds("HGMMA.64x64x16.F32.BF16 R24, gdesc[UR8], RZ, gsb0", "FSETP.GT.AND P0, PT, R30, RZ, PT",
                      "@P0 EXIT", "EXIT")
    assert kinds["branch"] == 1


# ---- compiled corpus and shipped variants (subprocesses: no interpreter) --------------------------------
@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    out = tmp_path_factory.mktemp("corpus")
    res = subprocess.run([sys.executable, "-m", "tests.audit_corpus", str(out)], cwd=ROOT, env=_env(),
                         capture_output=True, text=True, timeout=900)
    assert res.returncode == 0, res.stderr[-3000:]
    return json.loads(res.stdout.strip().splitlines()[-1])


LEAKS = ["leak_if", "leak_loop_bound", "leak_early_return", "leak_gather", "leak_store_mask", "leak_ieee_div",
         "leak_shuffle_lane", "leak_atomic"]
CLEAN = ["clean_select", "clean_softmax", "clean_matmul", "clean_public_control"]


@pytest.mark.parametrize("name", LEAKS)
def test_planted_leak_is_flagged_with_its_kind(corpus, name):
    r = corpus[name]
    assert r["kinds"][r["expected"]] >= 1, f"{name}: expected a {r['expected']} finding, got {r['kinds']}"
    f = next(f for f in r["findings"] if f["kind"] == r["expected"])
    assert f["path"] and "source" in f["path"][-1], "a finding names its path back to the secret source"


@pytest.mark.parametrize("name", CLEAN)
def test_clean_kernel_passes(corpus, name):
    assert not corpus[name]["findings"], corpus[name]["findings"][:3]


def test_gluon_kernel_compiles_and_audits_clean(corpus):
    r = corpus["clean_gluon_tile_softmax"]
    assert r["tensor_core"] > 0 and not r["findings"], r["findings"]


def test_gluon_warp_specialized_pipeline_audits_clean(corpus):
    # partition dispatch: jump-table BRX targets and the runtime's partition-state byte (docs/gluon-audit.md)
    r = corpus["gluon_warp_specialized"]
    assert r["tensor_core"] > 0 and not r["findings"], r["findings"]


def test_public_declaration_is_honoured(corpus):
    assert corpus["public_lengths_undeclared"]["kinds"]["branch"] >= 1
    assert not corpus["public_lengths_declared"]["findings"]


def test_cli_audits_a_third_party_cubin(corpus):
    res = subprocess.run([sys.executable, "-m", "dhpfa", "audit", "--json", "--cubin", corpus["_gather_cubin"]],
                         cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=300)
    assert res.returncode == 1, res.stderr
    rep = json.loads(res.stdout)
    assert not rep["ok"] and rep["rows"][0]["findings"]["address"] >= 1


FULL_AUDIT = "test_every_shipped_variant_passes_the_audit_in_time"
# The full audit as one child process: `dhpfa audit --compile-only`, then `dhpfa audit --json`, each timed; it writes
# {"compile": [rc, seconds, stdout tail, stderr tail], "audit": [rc, seconds, stdout, stderr tail]} to argv[1].
_FULL_AUDIT_DRIVER = """
import json, os, subprocess, sys, time
out = {}
for step, argv in (("compile", ["--compile-only"]), ("audit", ["--json"])):
    t0 = time.time()
    res = subprocess.run([sys.executable, "-m", "dhpfa", "audit", *argv], capture_output=True, text=True)
    out[step] = [res.returncode, time.time() - t0, res.stdout if step == "audit" else res.stdout[-3000:],
                 res.stderr[-3000:]]
    if res.returncode != 0:
        break
with open(sys.argv[1] + ".tmp", "w") as f:
    json.dump(out, f)
os.replace(sys.argv[1] + ".tmp", sys.argv[1])
"""
_full_audit = {}  # "proc": the child, "path": its result file, "t0": its start


def start_full_audit(tmpdir):
    """Start the full audit in the background (conftest, once the collection holds FULL_AUDIT): it compiles and
    audits every shipped binary on all cores while the interpreter tests, which use one, run beside it; FULL_AUDIT
    (run last) waits for it. Its own process group, so that stop_full_audit ends its compile pool too."""
    path = os.path.join(str(tmpdir), "full_audit.json")
    proc = subprocess.Popen([sys.executable, "-c", _FULL_AUDIT_DRIVER, path], cwd=ROOT, env=_env(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    _full_audit.update(proc=proc, path=path, t0=time.time())


def stop_full_audit():
    """End the background audit's process group if it still runs (an interrupted or partial session)."""
    proc = _full_audit.get("proc")
    if proc is not None and proc.poll() is None:
        import signal
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()


def _full_audit_result():
    """The background audit's result (started by conftest; started here where this test runs alone)."""
    if "proc" not in _full_audit:
        import tempfile
        start_full_audit(tempfile.mkdtemp(prefix="dhpfa-audit-"))
    try:
        _full_audit["proc"].wait(timeout=max(1, 2400 - (time.time() - _full_audit["t0"])))
    except subprocess.TimeoutExpired:
        stop_full_audit()
        pytest.fail("the full audit ran past 2,400 s")
    with open(_full_audit["path"]) as f:
        return json.load(f)


def test_every_shipped_variant_passes_the_audit_in_time():
    """Every shipped binary compiled (`dhpfa audit --compile-only`) and audited (`dhpfa audit --json`), in a background
    process that conftest starts at the session's start and this test (run last) waits for. Compiling depends on what
    the machine's caches hold (cold, on a 2-core machine: 780 s for 662 binaries in session 21, alone); the audit then
    reads the binaries from the cache (420 s alone). The bounds guard CI's budget (a hung compiler or an auditor gone
    quadratic), with the rest of the suite running beside them; they are not speed targets."""
    res = _full_audit_result()
    rc, seconds, stdout, stderr = res["compile"]
    assert rc == 0 and seconds < 1500, (seconds, stdout, stderr)
    assert "binaries" in stdout, stdout
    assert "audit" in res, res
    rc, elapsed, stdout, stderr = res["audit"]
    assert rc == 0, (stdout[-3000:], stderr)
    rep = json.loads(stdout)
    from dhpfa.kernels import variants
    from dhpfa.audit import audited_kernels
    # stamp, gated stamp, pad; the varlen equal-length guard (fp16, bf16); kvcache_bounds' five forms (session 34);
    # kvcache_append's five forms in fp16 and bf16, without rotary embeddings and with each kind (session 35)
    assert len(audited_kernels()) == 40
    assert rep["ok"] and len(rep["rows"]) == len(variants.audited_variants()) + 40  # + those kernels
    attn = [r for r in rep["rows"] if r["variant"].startswith("attn_fwd")]
    combine = [r for r in rep["rows"] if r["variant"].startswith("attn_varlen_combine")]
    assert len(attn) + len(combine) == len(variants.shipped_variants()) + len(variants.varlen_variants())
    # combine: per dtype and head dim (4 grouped, 6 not), its 16-part and its 4-part tiles (session 36)
    # (session 37: + 48 grouped few-row tiles, variants.VARLEN_GROUP_FEW: 2 head dims x 2 dtypes x causal or not x
    # unpaged / paged per key / paged per block x split or not)
    assert sum(r["variant"].startswith("attn_fwd_varlen") for r in attn) == 576 and len(combine) == 40
    # the portable kernel's grouped paged builds with a window and / or soft-cap (session 34): 3 option sets x split or
    # not x two page forms x 4 head dims x 2 dtypes, the soft-capped ones causal or not
    assert sum(r["variant"].startswith("attn_fwd_varlen") and "_gqa_paged" in r["variant"]
               and ("_local" in r["variant"] or "_softcap" in r["variant"]) for r in attn) == 128
    # 4 head dims x 2 dtypes: causal or not, with a window (not causal), each soft-capped or not; and as many paged
    # builds (session 32: without a window or soft-cap; session 33: with them)
    assert sum(r["variant"].startswith("attn_fwd_sm90_varlen") for r in attn) == 96
    assert sum(r["variant"].startswith("attn_fwd_sm90_varlen_local") for r in attn) == 32
    assert sum(r["variant"].startswith("attn_fwd_sm90_varlen") and r["variant"].split("-")[0].endswith("_paged")
               for r in attn) == 48
    # (their declaration: test_varlen_schedule_is_public_...; session 34: + the 128 grouped window / soft-cap builds)
    assert sum("_paged" in r["variant"] for r in attn) == 368
    assert sum("_paged_blocks" in r["variant"] for r in attn) == 160  # the per-block page form
    assert all(r["counts"]["tensor_core"] > 0 for r in attn), "every attention variant uses HGMMA"
    assert any("envelope_pad (public: start_ptr)" in r["variant"] for r in rep["rows"])
    assert any("envelope_stamp (gated) (public: gate_ptr)" in r["variant"] for r in rep["rows"])
    assert sum("varlen_equal_guard" in r["variant"] and "(public: CU_Q, CU_K)" in r["variant"]
               for r in rep["rows"]) == 2
    assert sum(r["variant"].startswith("kvcache_bounds") and "(public: LENS" in r["variant"]
               for r in rep["rows"]) == 5
    assert elapsed < 900, f"audit took {elapsed:.0f} s"


_BATCHED_SASS = """
import json, sys
from dhpfa import audit
from dhpfa.audit import compile as C, variant_launch
from dhpfa.audit.sass import parse_functions
from dhpfa.kernels import variants
by_name = {v.name: v for v in variants.audited_variants()}
cubins = [C.compile_offline(*variant_launch(by_name[n])).cubin for n in json.loads(sys.argv[1])]
cubins += [C.compile_offline(*k[1:4]).cubin for k in audit.audited_kernels()[:2]]
from tests.audit_corpus import CORPUS  # a kernel with a subroutine (CALL, RET: IEEE division's slow path)
cubins.append(C.compile_offline(*CORPUS["leak_ieee_div"][:3]).cubin)
out = []
for c, t in zip(cubins, C.sass_texts(cubins)):
    a, b = ({k: [(i.addr, i.text, i.target) for i in v] for k, v in parse_functions(x).items()} for x in (C.sass_text(c), t))
    out.append([len(a), sum(map(len, a.values())), sum(i[2] is not None for v in a.values() for i in v), a == b])
print(json.dumps(out))
"""


def test_batched_disassembly_equals_cuobjdump():
    """The full audit disassembles its binaries in batches (compile.sass_texts: one nvdisasm run over the code of
    many cubins, cut back into functions with addresses and branch targets relative to each); the listing it parses
    must be cuobjdump's: the same functions, instructions, addresses and branch targets, for binaries of each kernel
    family, two envelope kernels and a corpus kernel with a subroutine (CALL / RET) placed after one another in one
    batch (so every one but the first is rebased). Offline, in a process without the interpreter."""
    names = ["attn_fwd_sm90_ws-bf16-d256-full-m64n64w4s2kv4ov", "attn_fwd_tma-bf16-d64-causal-m64n64w4s3",
             "attn_fwd_sm90_ws-fp16-d64-causal-m192n128w4s2x3-persistent",
             "attn_fwd_varlen_split_paged-bf16-d128-causal-m64n64w4s3"]
    res = subprocess.run([sys.executable, "-c", _BATCHED_SASS, json.dumps(names)], cwd=ROOT, env=_env(),
                         capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr[-3000:]
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert len(out) == len(names) + 3
    assert all(functions >= 1 and instructions > 10 for functions, instructions, _, _ in out), out
    assert sum(targets for _, _, targets, _ in out[1:]) > 20, out  # rebased branch targets were compared
    assert all(same for *_, same in out), out


SHAPE_CLASSES = [(2, 128, 128, 4, 2), (2, 300, 200, 4, 2), (1, 1, 8192, 8, 2), (1, 17, 1000, 4, 4), (3, 1, 16, 16, 1),
                 (1, 64, 64, 1, 1), (5, 33, 4099, 32, 8)]
_ONE_BINARY = """
import json, sys, torch
from dhpfa.audit import variant_launch
from dhpfa.audit.compile import compile_offline
from dhpfa.kernels import dispatch, variants
v = next(x for x in variants.shipped_variants() if x.name == sys.argv[1])
out = {"audited": compile_offline(*variant_launch(v)).sha256, "shapes": {}}
for b, sq, sk, h, hk in json.loads(sys.argv[2]):
    q = torch.empty(b, sq, h, v.head_dim, dtype=v.dtype)
    k = torch.empty(b, sk, hk, v.head_dim, dtype=v.dtype)
    _, args, kwargs = dispatch.launch_args(v, q, k, torch.empty_like(k), torch.empty_like(q), torch.empty(b, h, sq),
                                           0.1, v.causal, sk - sq)
    out["shapes"][str((b, sq, sk, h, hk))] = compile_offline(dispatch.kernel_fn(v.kernel), args, kwargs).sha256
print(json.dumps(out))
"""


@pytest.mark.parametrize("name", ["attn_fwd_sm90_ws-bf16-d128-full-m128n128w4s2x2ppqd-persistent",
                                  "attn_fwd_sm90_ws-fp16-d64-causal-m192n128w4s2x3-persistent",
                                  "attn_fwd_sm90_ws-bf16-d96-causal-m64n64w4s2x2skup",
                                  "attn_fwd_sm90_ws-bf16-d256-full-m64n64w4s2kv4ov",
                                  "attn_fwd_tma-bf16-d64-causal-m64n64w4s3"])
def test_every_shape_launches_the_audited_binary(name):
    """A variant compiles to one binary whatever the call's shapes: Triton would specialise an integer argument equal
    to 1 or divisible by 16, so calls of other shapes (one query, odd lengths, one key/value head) would launch
    binaries the audit, which compiles one shape, never read. The shape arguments are not specialised
    (sm90_fwd.SHAPE_ARGS, triton_fwd.SHAPE_ARGS). Offline (the JIT's own binder on CPU placeholders), in a process
    without the interpreter."""
    res = subprocess.run([sys.executable, "-c", _ONE_BINARY, name, json.dumps(SHAPE_CLASSES)], cwd=ROOT, env=_env(),
                         capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr[-3000:]
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert len(out["shapes"]) == len(SHAPE_CLASSES)
    other = {shape: h for shape, h in out["shapes"].items() if h != out["audited"]}
    assert not other, f"shapes that launch a binary the audit did not read: {sorted(other)}"


_WIDE_BINARY = """
import json, sys, torch
from dhpfa.audit import variant_launch
from dhpfa.audit.compile import compile_offline
from dhpfa.kernels import dispatch, variants
v = next(x for x in variants.shipped_variants() if x.name == sys.argv[1])
out = {"audited": compile_offline(*variant_launch(v)).sha256, "shapes": {}}
for b, s, h, st_s, st_b in json.loads(sys.argv[2]):
    def wide():  # meta tensors: strides past 2^31 elements without the memory
        return torch.empty(0, dtype=v.dtype, device="meta").as_strided((b, s, h, v.head_dim),
                                                                       (st_b or s * st_s, st_s, v.head_dim, 1))
    q, k = wide(), wide()
    _, args, kwargs = dispatch.launch_args(v, q, k, k, q, torch.empty(b, h, s, device="meta"), 0.1, v.causal, 0)
    out["shapes"][str((b, s, h, st_s, st_b))] = compile_offline(dispatch.kernel_fn(v.kernel), args, kwargs).sha256
print(json.dumps(out))
"""
# (batch, seq, heads, row stride, batch stride or 0 for seq x row stride): an entry of 2.3e9 elements, a batch stride
# of 2^31 + 1,024, and 600K tokens x 32 heads x 128 (2.5e9)
WIDE_CLASSES = [(1, 1100, 2, 2 ** 21, 0), (2, 64, 4, 256, 2 ** 31 + 2 ** 10), (1, 600000, 32, 4096, 0)]


@pytest.mark.parametrize("name", ["attn_fwd_sm90_ws-bf16-d128-full-m128n128w4s2x2ppqd-persistent",
                                  "attn_fwd_tma-bf16-d64-causal-m64n64w4s3"])
def test_wide_batch_entries_launch_the_audited_binary(name):
    """Calls whose batch entries pass 32-bit offsets run on the TMA-descriptor kernels (api.OFFSET_LIMIT): their
    strides go into the descriptors (64-bit, never specialised), so such a call launches the audited binary."""
    res = subprocess.run([sys.executable, "-c", _WIDE_BINARY, name, json.dumps(WIDE_CLASSES)], cwd=ROOT, env=_env(),
                         capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr[-3000:]
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert len(out["shapes"]) == len(WIDE_CLASSES)
    assert set(out["shapes"].values()) == {out["audited"]}, out


_VARLEN_BINARY = """
import json, sys, torch
from dhpfa.audit import variant_launch
from dhpfa.audit.compile import compile_offline
from dhpfa.kernels import dispatch, variants
v = next(x for x in variants.varlen_variants() if x.name == sys.argv[1])
out = {"audited": compile_offline(*variant_launch(v)).sha256, "shapes": {}}
# the Hopper builds' window and soft-cap (runtime values): a window side of 1, 16, 0 or unbounded (-1), any cap
WINDOWS = [(-1, -1), (1, 16), (0, 1), (16, 0), (2, 32), (-1, 0)]
for i, (tq, tk, h, hk, batch, max_q, packed) in enumerate(json.loads(sys.argv[2])):
    if packed:  # q, k, v as views of one (total, 3, H, D) tensor
        q, k, vv = torch.empty(tq, 3, h, v.head_dim, dtype=v.dtype).unbind(1)
    else:
        q, k, vv = (torch.empty(tq, h, v.head_dim, dtype=v.dtype), torch.empty(tk, hk, v.head_dim, dtype=v.dtype),
                    torch.empty(tk, hk, v.head_dim, dtype=v.dtype))
    cu = torch.empty(batch + 1, dtype=torch.int32)
    split = "_split" in v.kernel
    ws = (torch.empty(3, tq, h, v.head_dim), torch.empty(3, h, tq)) if split else (None, None)
    group = h // k.shape[1] if "_gqa" in v.kernel and h > k.shape[1] else 1
    if "_gqa" in v.kernel and group == 1:
        continue  # no group of heads in this shape
    # paged builds: the key rows as pages of 1 or 16 rows (any count), a block table of 1 or 3 pages per sequence;
    # the per-block form: pages of 1 or 2 key blocks (any count, none at all in the smaller shapes)
    page = 16 if tk % 16 == 0 else 1
    if v.kernel.endswith("_blocks") or v.kernel in variants.VARLEN_SM90_PAGED_KERNELS.values():
        page = v.config.block_n * (1 + tk % 2)
    paged = (torch.empty(batch, 1 + 2 * (tk % 2), dtype=torch.int32), page, tk // page) if "_paged" in v.kernel \
        else None
    o = torch.empty(tq + 64, h, v.head_dim, dtype=v.dtype)[64:]  # rows in front, as api._varlen_out allocates
    _, args, kwargs = dispatch.varlen_launch_args(v, q, k, vv, o, torch.empty(h, tq), cu,
                                                  torch.empty_like(cu), max_q, 0.1, window=WINDOWS[i % len(WINDOWS)],
                                                  softcap=1.0 + i, group=group, splits=3 if split else 1, ws=ws,
                                                  paged=paged)
    out["shapes"][str((tq, tk, h, hk, batch, max_q, packed))] = compile_offline(dispatch.kernel_fn(v.kernel), args,
                                                                               kwargs).sha256
print(json.dumps(out))
"""
VARLEN_SHAPES = [(1, 1, 1, 1, 1, 1, False), (1000, 37, 8, 2, 3, 999, False), (17, 17, 4, 4, 1, 17, True),
                 (4099, 8192, 32, 8, 7, 4096, False), (300, 300, 16, 16, 2, 150, True), (50, 60, 6, 3, 2, 20, False)]


@pytest.mark.parametrize("name", ["attn_fwd_varlen-bf16-d128-causal-m64n64w4s3", "attn_fwd_varlen-fp16-d96-full-m64n64w4s3",
                                  "attn_fwd_varlen_local_softcap_split-bf16-d64-full-m64n64w4s3",
                                  "attn_fwd_varlen_split_gqa-fp16-d128-causal-m64n64w4s3",
                                  "attn_fwd_varlen_split_gqa_paged-bf16-d64-causal-m64n64w4s3",
                                  "attn_fwd_varlen_paged_blocks-fp16-d128-full-m64n64w4s3",
                                  "attn_fwd_sm90_varlen-bf16-d128-causal-m128n128w4s2x2pp",
                                  "attn_fwd_sm90_varlen_local_softcap-fp16-d256-full-m128n64w4s2x2pp",
                                  "attn_fwd_sm90_varlen_paged-bf16-d128-causal-m128n128w4s2x2pp",
                                  "attn_fwd_sm90_varlen_local_softcap_paged-bf16-d256-full-m128n64w4s2x2pp",
                                  "attn_fwd_varlen_local_softcap_split_gqa_paged_blocks-bf16-d128-full-m64n64w4s3"])
def test_every_varlen_shape_launches_the_audited_binary(name):
    """As above, for the varlen kernel: one binary whatever the totals, heads, batch, max_seqlen_q and strides
    (triton_fwd.VARLEN_SHAPE_ARGS)."""
    res = subprocess.run([sys.executable, "-c", _VARLEN_BINARY, name, json.dumps(VARLEN_SHAPES)], cwd=ROOT,
                         env=_env(), capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr[-3000:]
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert len(out["shapes"]) >= 3  # grouped builds: the shapes with groups of heads (4, 4 and 2 heads)
    other = {shape: h for shape, h in out["shapes"].items() if h != out["audited"]}
    assert not other, f"shapes that launch a binary the audit did not read: {sorted(other)}"


_VARLEN_AUDIT = """
import json, torch
from dhpfa import audit
from dhpfa.kernels import variants
v = variants.varlen_variant(torch.bfloat16, 64, True)
declared, _ = audit.audit_triton(*audit.variant_launch(v), public_params=v.public_loads)
undeclared, _ = audit.audit_triton(*audit.variant_launch(v))
p = variants.varlen_variant(torch.bfloat16, 64, True, split=True, paged=True)
paged, _ = audit.audit_triton(*audit.variant_launch(p), public_params=p.public_loads)
no_table, _ = audit.audit_triton(*audit.variant_launch(p), public_params=("CU_Q", "CU_K"))
pb = variants.varlen_variant(torch.bfloat16, 128, False, group=True, paged=True, page_blocks=True)
blocks, _ = audit.audit_triton(*audit.variant_launch(pb), public_params=pb.public_loads)
blocks_no_table, _ = audit.audit_triton(*audit.variant_launch(pb), public_params=("CU_Q", "CU_K"))
pw = variants.varlen_variant(torch.float16, 256, False, local=True, softcap=True, split=True, group=True, paged=True)
window_paged, _ = audit.audit_triton(*audit.variant_launch(pw), public_params=pw.public_loads)
window_paged_no_table, _ = audit.audit_triton(*audit.variant_launch(pw), public_params=("CU_Q", "CU_K"))
hv = variants.varlen_sm90_variant(torch.bfloat16, 128, True)
hopper, _ = audit.audit_triton(*audit.variant_launch(hv), public_params=hv.public_loads)
hopper_undeclared, _ = audit.audit_triton(*audit.variant_launch(hv))
hw = variants.varlen_sm90_variant(torch.float16, 256, False, local=True, softcap=True)
window, _ = audit.audit_triton(*audit.variant_launch(hw), public_params=hw.public_loads)
window_undeclared, _ = audit.audit_triton(*audit.variant_launch(hw))
hopper_paged, hopper_no_table = [], []
for hp in (variants.varlen_sm90_variant(torch.bfloat16, 256, True, paged=True),
           variants.varlen_sm90_variant(torch.bfloat16, 256, False, local=True, softcap=True, paged=True)):
    hopper_paged += audit.audit_triton(*audit.variant_launch(hp), public_params=hp.public_loads)[0]
    hopper_no_table += audit.audit_triton(*audit.variant_launch(hp), public_params=("CU_Q", "CU_K"))[0]
print(json.dumps({"declared": [r.by_kind() for r in declared], "undeclared": [r.by_kind() for r in undeclared],
                  "hopper": [r.by_kind() for r in hopper + window],
                  "hopper_undeclared": [r.by_kind() for r in hopper_undeclared],
                  "window_undeclared": [r.by_kind() for r in window_undeclared],
                  "hopper_paged": [r.by_kind() for r in hopper_paged],
                  "hopper_no_table": [r.by_kind() for r in hopper_no_table],
                  "paged": [r.by_kind() for r in paged + blocks + window_paged],
                  "paged_no_table": [r.by_kind() for r in no_table + window_paged_no_table],
                  "blocks_no_table": [r.by_kind() for r in blocks_no_table]}))
"""


def test_varlen_schedule_is_public_only_through_its_declared_offsets():
    """The varlen kernel branches on the sequence offsets it loads: clean when CU_Q and CU_K are declared public (what
    the variant declares), flagged (branches and addresses) when they are not. So the audit reads those loads, and
    nothing else the kernel loads reaches a branch or an address."""
    res = subprocess.run([sys.executable, "-c", _VARLEN_AUDIT], cwd=ROOT, env=_env(), capture_output=True, text=True,
                         timeout=600)
    assert res.returncode == 0, res.stderr[-3000:]
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert all(sum(r.values()) == 0 for r in out["declared"]), out
    assert sum(r["branch"] for r in out["undeclared"]) > 0 and sum(r["address"] for r in out["undeclared"]) > 0, out
    # paged builds (both page forms; and the grouped one with a window and soft-cap, session 34): clean with the block
    # table public too (BT), flagged (addresses) with only the offsets public
    assert all(sum(r.values()) == 0 for r in out["paged"]), out
    assert all(r["address"] > 0 for r in out["paged_no_table"]), out
    assert sum(r["address"] for r in out["blocks_no_table"]) > 0, out
    # the Hopper varlen kernel (attn_fwd_sm90_varlen): its tile's existence, key blocks and TMA coordinates follow the
    # offsets; clean with them public, flagged without (and its local, soft-capping build: session 31)
    assert all(sum(r.values()) == 0 for r in out["hopper"]), out
    assert sum(r["branch"] for r in out["hopper_undeclared"]) > 0, out
    assert sum(r["branch"] for r in out["window_undeclared"]) > 0, out
    # its paged builds (session 32; with a window and soft-cap, session 33): clean with the block table public too,
    # flagged (TMA coordinates, the V fix-up's branch) with only the offsets public
    assert len(out["hopper_paged"]) >= 2 and all(sum(r.values()) == 0 for r in out["hopper_paged"]), out
    assert all(r["address"] > 0 for r in out["hopper_no_table"]), out


_GUARD_AUDIT = """
import json, torch
from dhpfa import audit
from dhpfa.audit.compile import compile_offline
from dhpfa.kernels import triton_fwd
out = {}
for name, fn, args, kwargs, public in triton_fwd.audited_kernels():
    if not name.startswith("varlen_equal_guard"):
        continue
    declared, _ = audit.audit_triton(fn, args, kwargs, public_params=public)
    undeclared, _ = audit.audit_triton(fn, args, kwargs)
    dt = args[0].dtype
    shapes = set()
    for b, sq, sk, h, d in ((1, 1, 1, 1, 32), (7, 333, 4097, 5, 96), (64, 1024, 128, 32, 128)):
        cu = torch.empty(b + 1, dtype=torch.int32)
        _, a, kw = triton_fwd.equal_guard_args(torch.empty(b, sq, h, d, dtype=dt), torch.empty(b, h, sq), cu,
                                               torch.empty_like(cu), sq, sk)
        shapes.add(compile_offline(fn, a, kw).sha256)
    out[name] = {"declared": [r.by_kind() for r in declared], "undeclared": [r.by_kind() for r in undeclared],
                 "audited": compile_offline(fn, args, kwargs).sha256, "shapes": sorted(shapes)}
print(json.dumps(out))
"""


_BOUNDS_BINARY = """
import json, torch
from dhpfa.audit.compile import compile_offline
from dhpfa.kernels import triton_fwd
out = {}
for name, fn, args, kwargs, public in triton_fwd.audited_kernels():
    if not name.startswith("kvcache_bounds"):
        continue
    shapes = set()
    for b, s_new, sc in ((1, 0, 1), (16, 16, 4096), (300, 1, 77), (7, 3, 2 ** 30)):
        lens = torch.empty(b, dtype=torch.int32)
        _, a, kw = triton_fwd.kvcache_bounds_args(lens, lens, lens, torch.empty(2 * b, dtype=torch.int32), s_new, sc,
                                                  kwargs["PAGED"], kwargs["HAS_LEFTPAD"], kwargs["HAS_IDX"])
        shapes.add(compile_offline(fn, a, kw).sha256)
    out[name] = {"audited": compile_offline(fn, args, kwargs).sha256, "shapes": sorted(shapes)}
print(json.dumps(out))
"""


def test_kvcache_bounds_is_one_binary_per_form():
    """triton_fwd.kvcache_bounds (flash_attn_with_kvcache's key rows in one launch, session 34): one binary per form
    (paged; with cache_leftpad and / or cache_batch_idx) whatever the batch, new tokens and cache rows (its integer
    arguments are not specialised), the one the audit reads."""
    res = subprocess.run([sys.executable, "-c", _BOUNDS_BINARY], cwd=ROOT, env=_env(), capture_output=True, text=True,
                         timeout=600)
    assert res.returncode == 0, res.stderr[-3000:]
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert len(out) == 5, out
    assert all(v["shapes"] == [v["audited"]] for v in out.values()), out


_APPEND_BINARY = """
import json, torch
from dhpfa import audit
from dhpfa.audit.compile import compile_offline
from dhpfa.kernels import triton_fwd
out = {}
for name, fn, args, kwargs, public in triton_fwd.audited_kernels():
    if not name.startswith("kvcache_append"):
        continue
    shapes = set()
    dt = args[4].dtype
    for b, s_new, hk, d, sc, page, off in ((1, 1, 1, 32, 16, 16, 0), (7, 3, 8, 128, 4096, 256, 1),
                                           (64, 1, 4, 96, 77, 7, 3)):
        lens = torch.empty(b, dtype=torch.int32)
        kn = torch.empty(b * s_new * hk * d + off, dtype=dt)[off:].view(b, s_new, hk, d)
        kr = torch.empty(b * sc * hk * d + off, dtype=dt)[off:].view(b * sc, hk, d)
        bt = torch.empty(b, max(1, sc // page), dtype=torch.int32)
        rot = {}
        if kwargs["ROTARY"]:
            qq = torch.empty(b * (s_new + 1) * 2 * hk * d + off, dtype=dt)[off:].view(b, s_new + 1, 2 * hk, d)
            cs = torch.empty(sc * d // 2 + off, dtype=dt)[off:].view(sc, d // 2)
            rot = dict(q=qq, q_out=torch.empty_like(qq), cos=cs, sin=cs, per_row=s_new > 1,
                       interleaved=kwargs["ROTARY"] == 2)
        _, a, kw = triton_fwd.kvcache_append_args(lens, lens, lens, torch.empty(2 * b, dtype=torch.int32), kn,
                                                  kn.transpose(2, 3).contiguous().transpose(2, 3), kr, kr, bt, sc,
                                                  page, kwargs["PAGED"], kwargs["HAS_LEFTPAD"], kwargs["HAS_IDX"],
                                                  **rot)
        shapes.add(compile_offline(fn, a, kw).sha256)
    declared, _ = audit.audit_triton(fn, args, kwargs, public_params=public)
    undeclared, _ = audit.audit_triton(fn, args, kwargs)
    out[name] = {"audited": compile_offline(fn, args, kwargs).sha256, "shapes": sorted(shapes),
                 "declared": [r.by_kind() for r in declared], "undeclared": [r.by_kind() for r in undeclared]}
print(json.dumps(out))
"""


def test_kvcache_append_is_one_binary_per_form_and_audits_clean():
    """triton_fwd.kvcache_append (flash_attn_with_kvcache's new-token writes and key rows in one launch, session 35; with
    rotary embeddings of the new keys and q, or not): one binary per form and dtype whatever the shapes, strides and the
    tensors' alignment (its integer and data
    pointer arguments are not specialised), the one the audit reads; clean with the lengths, pads, rows and block
    table declared public, flagged (addresses, store predicates) when they are not."""
    res = subprocess.run([sys.executable, "-c", _APPEND_BINARY], cwd=ROOT, env=_env(), capture_output=True,
                         text=True, timeout=600)
    assert res.returncode == 0, res.stderr[-3000:]
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert len(out) == 30, out
    for name, r in out.items():
        assert r["shapes"] == [r["audited"]], (name, r)
        assert all(sum(k.values()) == 0 for k in r["declared"]), (name, r)
        assert sum(k["address"] + k["memory-predicate"] for k in r["undeclared"]) > 0, (name, r)


def test_equal_length_guard_branches_only_on_its_declared_offsets():
    """varlen_equal_guard (after a varlen call of equal lengths ran on the dense kernels) branches on the offsets it
    loads: clean when CU_Q and CU_K are public (as it declares), flagged when not; and one binary whatever the batch,
    lengths, heads and head dim (its integer arguments are not specialised)."""
    res = subprocess.run([sys.executable, "-c", _GUARD_AUDIT], cwd=ROOT, env=_env(), capture_output=True, text=True,
                         timeout=600)
    assert res.returncode == 0, res.stderr[-3000:]
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert len(out) == 2
    for name, r in out.items():
        assert all(sum(k.values()) == 0 for k in r["declared"]), (name, r)
        assert sum(k["branch"] for k in r["undeclared"]) > 0, (name, r)
        assert r["shapes"] == [r["audited"]], (name, r)


_SPLIT_KV_FOLD = """
import json
from dhpfa.audit import variant_launch
from dhpfa.audit import compile as C
from dhpfa.kernels import dispatch, variants
rows = []
for flag in (True, False):
    dispatch.SPLIT_KV_FULL_AS_CAUSAL = flag
    keys = {}
    for v in variants.shipped_variants():
        if v.config.split_kv:
            fn, args, kwargs = variant_launch(v)
            keys.setdefault((v.kernel, v.config, str(v.dtype), v.head_dim), {})[v.causal] = (
                C.binary_key(fn, args, kwargs), kwargs["CAUSAL"], args[-1])
    rows.append([[str(k), c] for k, c in keys.items()])
print(json.dumps(rows))
"""


def test_split_kv_builds_run_non_causal_calls_on_their_causal_binary():
    """dispatch.SPLIT_KV_FULL_AS_CAUSAL (session 27): a split-across-programs build (TileConfig.split_kv) launches a
    non-causal call as a causal one whose diagonal lies past every key (CAUSAL_OFFSET 2^30), so its causal and
    non-causal variants are one binary (the full audit compiles 132 fewer). With the switch off they are two: the check
    can fail. Binds only (no compile); the GPU tests (test_gpu.test_few_program_grids_split_the_keys_across_programs)
    check the non-causal calls against float64."""
    res = subprocess.run([sys.executable, "-c", _SPLIT_KV_FOLD], cwd=ROOT, env=_env(), capture_output=True, text=True,
                         timeout=600)
    assert res.returncode == 0, res.stderr[-3000:]
    on, off = json.loads(res.stdout.strip().splitlines()[-1])
    # (D=96 / 192 run D=128 / 256's builds; 16 of them the cluster builds of session 43, 4 session 45's at two CTAs an
    # SM, 18 session 47's CL_TREE builds of 4 / 8 / 16 parts: 12 binaries; 16 session 48's clusters of four: 10;
    # 24 session 49's clusters of eight: 16; session 50: 18 clusters of sixteen in (12 binaries), 18 clusters of eight
    # (12) and 10 of four (6) out; session 52: the one-exchange meeting on by default (sm90_fwd CL_PULL_DEFAULT) splits
    # D=96's builds of one cluster of 4 / 8 / 16 parts (the tree's) from D=128's (the exchange's): 158 / 316; session
    # 53: so do its 32 / 64-part builds of clusters of sixteen (two or four clusters a tile exchange): 162 / 324)
    assert len(on) == 224 and all(set(c) == {"false", "true"} for _, c in on)
    for _, c in on:
        assert c["false"][0] == c["true"][0] and c["false"][1] and c["false"][2] == 2 ** 30, c
    assert all(c["false"][0] != c["true"][0] and not c["false"][1] for _, c in off)
    binaries = [len({x[0] for _, c in rows for x in c.values()}) for rows in (on, off)]
    assert binaries == [162, 324], binaries


_TMA_MASKED_LOOP = """
import json, sys
from dhpfa.audit import variant_launch
from dhpfa.audit import compile as C
from dhpfa.audit.sass import parse_functions
from dhpfa.kernels import variants
out = {}
for v in variants.audited_variants():
    if v.kernel == "attn_fwd_tma" and v.head_dim == 64 and str(v.dtype) == "torch.bfloat16":
        (ins,) = parse_functions(C.sass_text(C.compile_offline(*variant_launch(v)).cubin)).values()
        end = max(x.addr for x in ins if x.opcode == "EXIT")  # past it: the mbarrier waits' out-of-line retries
        skips = []
        for i in ins:
            if i.opcode == "BRA" and i.guard is not None and i.target is not None and i.addr < i.target <= end:
                inside = [x.opcode for x in ins if i.addr < x.addr < i.target]
                skips.append([sum(o.startswith("SYNCS.EXCH") for o in inside),
                              sum(o.startswith("SYNCS.CCTL.IV") for o in inside),
                              sum(o.startswith("HGMMA") for o in inside)])
        out[v.name] = skips
print(json.dumps(out))
"""


def test_tma_tiles_skip_the_masked_loop_set_up_when_it_has_no_blocks():
    """attn_fwd_tma runs its masked key blocks under a branch on their public count (session 28: D=64 S=512 x1.03 in
    graph replay): in the SASS a guarded forward branch jumps over a whole software pipeline, its ring barriers'
    initialisation (SYNCS.EXCH), its GEMMs and their invalidation (SYNCS.CCTL.IV). Without the branch no guarded
    branch jumps over a barrier's initialisation (each pipeline's empty-loop branch comes after it): checked on the
    session's SASS. The branch's predicate is public (the full audit)."""
    res = subprocess.run([sys.executable, "-c", _TMA_MASKED_LOOP], cwd=ROOT, env=_env(), capture_output=True,
                         text=True, timeout=600)
    assert res.returncode == 0, res.stderr[-3000:]
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert len(out) == 2, out  # D=64 bf16, causal and not
    for name, skips in out.items():
        assert any(e >= 3 and iv >= 3 and g >= 8 for e, iv, g in skips), (name, skips)


# A QK^T GEMM (HGMMA without .tnspB) whose A operand is in registers (Q, loaded before the key loop) must read registers
# the loop never writes. Session 28: a Triton 3.6 build of attn_fwd_tma (every causal block in one masked loop from a
# constant start, D=64; docs/experiments/session28_tma_causal_one_loop.diff) put the loop's P (the PV GEMM's operand)
# into Q's registers, so from the second block on QK^T read P: relative errors of 0.2-0.45 on the GPU, right in the
# interpreter. This check reads that from the SASS.
_Q_OPERAND_CHECK = """
def q_clobbers(ins):
    '''[(loop start, HGMMA address, register)] for QK^T HGMMAs inside a loop reading an A register the loop writes, and
    the number of such HGMMAs checked.'''
    out, checked = [], 0
    end = max(x.addr for x in ins if x.opcode == "EXIT")
    for br in ins:
        if br.opcode == "BRA" and br.target is not None and br.target < br.addr <= end:
            body = [x for x in ins if br.target <= x.addr <= br.addr]
            written = {r for x in body for op in x.operands[:x.ndest] for r in op.regs if r.kind == "R"}
            for x in body:
                if x.opcode.startswith("HGMMA") and ".tnspB" not in x.text and x.operands[1].regs \\
                        and x.operands[1].regs[0].kind == "R":
                    checked += 1
                    out += [(hex(br.target), hex(x.addr), str(r)) for r in x.operands[1].regs if r in written][:1]
    return out, checked
"""
_Q_OPERANDS = _Q_OPERAND_CHECK + """
import json
from dhpfa.audit import variant_launch
from dhpfa.audit import compile as C
from dhpfa.audit.sass import parse_functions
from dhpfa.kernels import variants
binaries = {}
for v in variants.audited_variants():
    if v.kernel in ("attn_fwd_tma", "attn_fwd"):
        c = C.compile_offline(*variant_launch(v))
        binaries.setdefault(c.sha256, (v.name, c.cubin))
names, cubins = zip(*binaries.values())
out = {}
for name, text in zip(names, C.sass_texts(list(cubins))):
    for ins in parse_functions(text).values():
        out[name] = q_clobbers(ins)
print(json.dumps(out))
"""


def test_q_clobber_check_flags_a_loop_that_writes_the_qk_operand():
    """The check below on a hand-written loop: a QK^T HGMMA reading R100..R103 and an F2FP writing R100 in the same loop
    (the miscompile's pattern) is flagged; the same loop writing R104 is not."""
    from dhpfa.audit.sass import parse_functions
    ns = {}
    exec(_Q_OPERAND_CHECK, ns)
    for written, flagged in (("R100", True), ("R104", False)):
        sass = ("Function : k\n"
                "        /*0000*/                   MOV R1, c[0x0][0x28] ;\n"
                "        /*0010*/                   HGMMA.64x64x16.F32.BF16 R24, R100, gdesc[UR16], RZ, !UPT ;\n"
                f"        /*0020*/                   F2FP.BF16.F32.PACK_AB {written}, R49, R50 ;\n"
                "        /*0030*/                   HGMMA.64x64x16.F32.BF16 R56, R104, gdesc[UR16].tnspB, R56 ;\n"
                "        /*0040*/              @!P0 BRA 0x10 ;\n"
                "        /*0050*/                   EXIT ;\n")
        (ins,) = parse_functions(sass).values()
        clobbers, checked = ns["q_clobbers"](ins)
        assert checked == 1 and bool(clobbers) == flagged, (written, clobbers, checked)


def test_triton_kernels_keep_q_registers_out_of_their_key_loops():
    """Every shipped binary of the dense Triton kernels: no QK^T HGMMA in a loop reads an A-operand register that the
    loop writes (the check above). 28 of attn_fwd_tma's 36 binaries keep Q in registers; attn_fwd's, the varlen
    kernels' (checked once: 0 of 412) and the Gluon kernels' read Q from shared memory. Runs after the full audit, which
    has compiled them."""
    res = subprocess.run([sys.executable, "-c", _Q_OPERANDS], cwd=ROOT, env=_env(), capture_output=True, text=True,
                         timeout=900)
    assert res.returncode == 0, res.stderr[-3000:]
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert sum(1 for _, checked in out.values() if checked) >= 28, out
    bad = {name: clobbers for name, (clobbers, _) in out.items() if clobbers}
    assert not bad, bad
