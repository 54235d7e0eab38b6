//===- Mutate.h - Semantic mutants and known-equivalent rewrites -*- C++ -*-===//
//
// Mutation testing of the oracle. A Mutator recovers K0 into the amdgcn
// dialect once and, per site, clones the IR, applies one edit and emits a
// code object:
//
//  * semantic mutants (should be rejected): change an immediate, swap the
//    sources of a non-commutative op, drop an instruction, replace an opcode
//    by a sibling, weaken or remove an s_waitcnt, shift a memory offset,
//    flip a branch condition, change an EXEC-mask op;
//  * known-equivalent rewrites (must be accepted): the identity, reordering
//    two adjacent independent ALU instructions (register units from
//    lib/Analysis, no new hazard per the hazard table), renaming a VGPR to
//    an unused one, inserting s_nop.
//
// Library asmevoMutate (MLIR + lib/Analysis); the oracle itself does not
// depend on it.
//
//===----------------------------------------------------------------------===//

#ifndef ASMEVO_VERIFY_MUTATE_H
#define ASMEVO_VERIFY_MUTATE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mlir {
class MLIRContext;
}

namespace asmevo {
namespace verify {

enum class EditKind : uint8_t {
  // Semantic mutants.
  Immediate,
  SwapSources,
  Drop,
  Sibling,
  Waitcnt,
  MemOffset,
  BranchFlip,
  ExecOp,
  // Known-equivalent rewrites.
  Identity,
  Reorder,
  Rename,
  NopInsert,
};
constexpr unsigned NumEditKinds = 12;
const char *editKindName(EditKind K);
inline bool isEquivalentKind(EditKind K) { return K >= EditKind::Identity; }

/// One place where an edit can be made.
struct EditSite {
  EditKind Kind;
  std::string Function; // kernel symbol
  unsigned OpIndex = 0; // position in the function's pre-order op walk
  int64_t Id = -1;      // stable id (original address) of the op, -1 none
  unsigned Variant = 0; // which variant of the edit
};

struct Edit {
  EditSite Site;
  std::string Description; // "[0x1920] v_add_u32 ... -> v_sub_u32 ..."
  std::vector<uint8_t> CodeObject; // emitted K1
};

class Mutator {
public:
  ~Mutator();
  /// Recovers K0. Ctx must outlive the Mutator.
  static llvm::Expected<std::unique_ptr<Mutator>>
  create(mlir::MLIRContext &Ctx, llvm::ArrayRef<uint8_t> K0);

  /// Every site of the kernel for the given kinds (cheap: no emission).
  std::vector<EditSite> sites(llvm::StringRef Kernel,
                              llvm::ArrayRef<EditKind> Kinds);
  /// Applies one edit on a copy of the IR and emits it. Errors: the edit
  /// does not apply here (encoding, legality) or emission fails.
  llvm::Expected<Edit> apply(const EditSite &Site);
  /// Why a surviving mutant may be equivalent, from the original IR: "the
  /// registers it defines are dead after it (conservative liveness)", or ""
  /// when there is no such static reason.
  std::string explainSurvivor(const EditSite &Site);

private:
  Mutator();
  struct Impl;
  std::unique_ptr<Impl> P;
};

} // namespace verify
} // namespace asmevo

#endif
