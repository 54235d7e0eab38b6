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

#endif // ASMEVO_PASSES_TD
