//===- Passes.td - asmevo rewrite passes -------------------*- tablegen -*-===//

#ifndef ASMEVO_PASSES_TD
#define ASMEVO_PASSES_TD

include "mlir/Pass/PassBase.td"

class AMDGCNPass<string name> : Pass<name, "::asmevo::amdgcn::CodeObjectOp">;

def TestInsertNop : AMDGCNPass<"amdgcn-test-insert-nop"> {
  let summary = "Test pass: insert s_nop 0 at the top of branch-target blocks";
  let description = [{
    Grows the code without changing what it computes (`s_nop` only adds wait
    states), so that emission must lay functions out again and recompute
    branch offsets and PC-relative literals. `count` nops are inserted at
    the top of every block that is a branch target (loop headers, join
    points), or of every block with `all-blocks`. Functions marked
    `not_relocatable` are left alone.
  }];
  let options = [
    Option<"count", "count", "unsigned", "1", "s_nop 0 to insert per block">,
    Option<"allBlocks", "all-blocks", "bool", "false",
           "insert at the top of every block, not only branch targets">
  ];
}

def TestDeleteBeforeBranch : AMDGCNPass<"amdgcn-test-delete-before-branch"> {
  let summary = "Test pass: delete the instruction before each branch";
  let description = [{
    Shrinks the code for layout tests. It changes what the kernel computes:
    use it only to test emission (the CFG must survive), never on code
    that will run.
  }];
}


//===----------------------------------------------------------------------===//
// Rewrite passes (issue 5). Every edit goes through asmevo::Legality; see
// docs/WritingPasses.md.
//===----------------------------------------------------------------------===//

def WaitcntRelax : AMDGCNPass<"amdgcn-waitcnt-relax"> {
  let summary = "Recompute the loosest correct s_waitcnt counts and place "
                "each wait just before the first op that needs it";
  let description = [{
    Removes every `s_waitcnt` of a function and puts back, right before
    each op, the loosest counts that complete the memory operations still
    in flight whose results the op reads or overwrites (vmcnt in order,
    SMEM only at lgkmcnt(0), flat at vmcnt(0) lgkmcnt(0)), plus, before
    fence-like ops (barriers, stores, atomics, messages, calls, returns),
    every operation the original had completed there. Waits written as raw
    immediates with bits outside the three counters are kept. s_nops are
    added where a removed wait provided wait states a hazard needs. The
    result goes through the legality checks; a refused function is left
    unchanged. Waits planned for ops with fewer than `merge-within` ops
    between them and no memory op among those are merged into the first (fewer s_waitcnt
    instructions for slightly earlier waiting; 0 keeps every wait at its
    first use). No block ends up with more waits than it had (so no path
    executes more): planned waits of a block merge into earlier ones, with
    counts lowered by the memory ops issued in between, closest first; a
    block that still has too many keeps its original waits (then its
    predecessors do), and a function where even that does not fit is left
    unchanged. No block gets slower either: each block with each of its
    predecessors is rated before and after in amdgcn-schedule's whole-block
    model (waits, latencies, what is in flight at its entry); where the
    pair is slower, or changed without being faster, their waits stay and
    the function is planned again. `allow-more-waits=1` drops both limits.
  }];
  let options = [
    Option<"mergeWithin", "merge-within", "unsigned", "2",
           "merge waits planned for ops fewer than this many ops apart">,
    Option<"allowMoreWaits", "allow-more-waits", "bool", "false",
           "let a block hold more waits than it had (one per use)">,
    Option<"summary", "summary", "bool", "false",
           "print what the pass did to stderr">,
    Option<"verbose", "verbose", "bool", "false",
           "print every decision to stderr">
  ];
}

def HazardNops : AMDGCNPass<"amdgcn-hazard"> {
  let summary = "Insert the s_nops that the hazard table requires";
  let description = [{
    For every op, in order, the producers within the lookback of the
    hazard table (include/asmevo/Analysis/Hazards.h: gfx9, gfx90a and
    gfx942 rows) that are closer than their required wait states get an
    `s_nop` (up to 16 wait states each) right before the consumer. Fixes
    violations already present in the input too: hand-written vendor code
    sometimes uses fewer wait states than LLVM's model (e.g. Tensile's
    VALU SGPR write -> VALU read with one wait state on gfx942, soft
    clauses with xnack "any"); `skip=valu-sgpr-valu,vmem-soft-clause`
    leaves chosen rules alone.

    One such case is left alone by default: a `valu-sgpr-valu` pair whose
    consumer reads the SGPR/VCC only as the carry-in of
    v_addc_co/v_subb_co/v_subbrev_co (a 64-bit add or subtract: Tensile's
    address arithmetic, 550 of the 577 pairs of a Tensile CC object). AMD's
    own wait-state table for gfx94x (rocRoller's VALUWriteSGPRVCC94x) needs
    no wait states when the SGPR/VCC is read as a carry; LLVM's recognizer
    asks 2 for every read. Only what the input already had is left: the
    legality checks keep LLVM's rule for pairs a rewrite creates.
    `fix-carry-reads=1` inserts LLVM's wait states there too.
  }];
  let options = [
    ListOption<"skip", "skip", "std::string",
               "hazard rule ids (Hazards.h) not to enforce">,
    Option<"fixCarryReads", "fix-carry-reads", "bool", "false",
           "also insert s_nops for valu-sgpr-valu pairs whose consumer "
           "reads the SGPR/VCC only as a carry-in">,
    Option<"summary", "summary", "bool", "false",
           "print what the pass did to stderr">,
    Option<"verbose", "verbose", "bool", "false",
           "print every decision to stderr">
  ];
}

def NopTrim : AMDGCNPass<"amdgcn-nop-trim"> {
  let summary = "Remove wait states beyond what hazards require";
  let description = [{
    Shrinks or deletes each `s_nop` as far as the hazard table allows
    (every producer/consumer pair across it keeps its required wait
    states on every path). Each change goes through the legality checks.
    `s_nop`s in blocks that nothing branches to are alignment padding
    (before loop headers, the kernarg preload prologue) and are kept
    unless `keep-alignment=false`.
  }];
  let options = [
    Option<"keepAlignment", "keep-alignment", "bool", "true",
           "keep s_nops in unreachable blocks (alignment padding)">,
    Option<"summary", "summary", "bool", "false",
           "print what the pass did to stderr">,
    Option<"verbose", "verbose", "bool", "false",
           "print every decision to stderr">
  ];
}

def DeadCode : AMDGCNPass<"amdgcn-dce"> {
  let summary = "Remove instructions without side effects whose results are "
                "never read";
  let description = [{
    An instruction without side effects, memory writes or branches whose
    register results are dead (conservative liveness: a vector write under
    a partial EXEC leaves the inactive lanes' old value live; at a kernel's
    s_endpgm nothing is live; at returns and calls everything is) is
    erased, repeatedly until nothing changes. Loads with dead results are
    erased too (the wait counts that counted them are re-verified).
  }];
  let options = [
    Option<"summary", "summary", "bool", "false",
           "print what the pass did to stderr">,
    Option<"verbose", "verbose", "bool", "false",
           "print every decision to stderr">,
    Option<"loads", "loads", "bool", "true",
           "also erase loads whose results are dead">
  ];
}

def ApplyEdits : AMDGCNPass<"amdgcn-apply-edits"> {
  let summary = "Apply a JSON edit script through the legality checks";
  let description = [{
    The door for external proposers (a search agent, a person): a JSON
    script of delete / move / insert / replace edits addressed by stable
    instruction ids (original addresses), new code written as AMDGPU
    assembly or in the dialect's syntax. Every edit goes through
    asmevo::Legality; refused edits are reported with the reason. The
    format is documented in docs/WritingPasses.md ("Edit scripts").
  }];
  let options = [
    Option<"edits", "edits", "std::string", "\"\"",
           "path of the JSON edit script">,
    Option<"report", "report", "std::string", "\"\"",
           "write a JSON report (one verdict per edit) to this path">,
    Option<"allowRefusals", "allow-refusals", "bool", "false",
           "do not fail the pass when the legality checks refuse an edit">,
    Option<"summary", "summary", "bool", "false",
           "print what the pass did to stderr">
  ];
}

def Schedule : AMDGCNPass<"amdgcn-schedule"> {
  let summary = "Latency-aware list scheduling inside blocks";
  let description = [{
    Reorders each block (its terminator stays last) by list scheduling on
    the block's dependence graph: an op is ready when everything it depends
    on is placed, ready ops issue in order of their critical path (the
    longest latency chain to the end of the block), so loads issue early
    and their consumers late. Latencies come from LLVM's scheduling model
    of the subtarget (MCSchedModel: VMEM 80, LDS/SMEM 5, MFMA by passes,
    VALU 1..4). `s_nop`s are dropped and re-inserted where the new order
    needs wait states. A block is rewritten only when the waits planned
    again fit in the block's original number of waits (see
    amdgcn-waitcnt-relax) and a whole-block model close to the cost
    model's (one op per issue slot, the block's real s_waitcnt/s_nop/
    s_barrier, the VALU and matrix unit busy, what the predecessors leave
    in flight at its entry, e.g. a loop's own MFMA chain) rates the block
    as it then stands faster than it was, counting the blocks after it;
    other blocks keep their order. All through the legality checks.
  }];
  let options = [
    Option<"summary", "summary", "bool", "false",
           "print what the pass did to stderr">,
    Option<"verbose", "verbose", "bool", "false",
           "print every decision to stderr">,
    Option<"unsafeIgnoreWAR", "unsafe-ignore-war", "bool", "false",
           "TEST ONLY: a deliberately broken scheduler that ignores WAR "
           "dependences; the legality checks must refuse what it proposes">
  ];
}

def Peephole : AMDGCNPass<"amdgcn-peephole"> {
  let summary = "Exactly equivalent local rewrites";
  let description = [{
    Integer and bitwise fusions that compute bit-identical results (no
    floating-point contraction, no change of rounding), when the
    intermediate register is not read afterwards:
    `v_lshlrev_b32 + v_add_u32 -> v_lshl_add_u32`,
    `v_add_u32 + v_add_u32 -> v_add3_u32`,
    `v_lshlrev_b32 + v_or_b32 -> v_lshl_or_b32`,
    `v_and_b32 + v_or_b32 -> v_and_or_b32`;
    moves of a register to itself are deleted; an instruction identical to
    an earlier one (same encoding, no side effects, nothing it reads or
    writes, nor EXEC, changed in between, not reading its own result) is
    deleted (redundant compares and moves). Every rewrite goes through the
    legality checks.
  }];
  let options = [
    Option<"summary", "summary", "bool", "false",
           "print what the pass did to stderr">,
    Option<"verbose", "verbose", "bool", "false",
           "print every decision to stderr">,
    Option<"window", "window", "unsigned", "4",
           "how many ops may lie between the two instructions of a fusion">
  ];
}

def RegCompact : AMDGCNPass<"amdgcn-regcompact"> {
  let summary = "Renumber registers to lower the VGPR/AGPR/SGPR counts";
  let description = [{
    In each kernel that calls nothing and uses no indexed or M0-relative
    register access, aligned groups of registers that no instruction names
    (2 VGPRs/AGPRs, 4 SGPRs: tuple alignment is kept) are squeezed out above
    the registers the hardware initializes (live at entry), by renaming
    every operand consistently. The descriptor's granulated VGPR/SGPR
    counts and accum_offset and the metadata's .vgpr_count, .agpr_count and
    .sgpr_count are lowered to match; the VGPR-limited occupancy before and
    after is reported with `summary`.
  }];
  let options = [
    Option<"summary", "summary", "bool", "false",
           "print what the pass did to stderr">,
    Option<"verbose", "verbose", "bool", "false",
           "print every renaming to stderr">
  ];
}

def MergeNops : AMDGCNPass<"amdgcn-merge-nops"> {
  let summary = "Merge adjacent s_nops (the worked example of "
                "docs/WritingPasses.md)";
  let description = [{
    `s_nop A` followed by `s_nop B` provides A+1 + B+1 wait states; one
    `s_nop A+B+1` provides the same in one instruction, when it fits in
    SIMM16[3:0] (at most 16 wait states).
  }];
  let options = [
    Option<"summary", "summary", "bool", "false",
           "print what the pass did to stderr">
  ];
}

def PrintAnalysis : AMDGCNPass<"amdgcn-print-analysis"> {
  let summary = "Print the analyses of each function to stderr";
  let description = [{
    What a pass or a proposer sees: the dependence graph of each block
    (edges with kinds and registers), hazard pairs (required and present
    wait states), memory operations in flight at block entries, live
    registers at block boundaries and the maximum register pressure.
    `what` selects (deps, dot, hazards, waits, liveness, pressure, all);
    `function` restricts to one kernel or function. Changes nothing.
  }];
  let options = [
    Option<"what", "what", "std::string", "\"all\"",
           "deps|dot|hazards|waits|liveness|pressure|all">,
    Option<"function", "function", "std::string", "\"\"",
           "only this kernel or function">
  ];
}

#endif // ASMEVO_PASSES_TD
