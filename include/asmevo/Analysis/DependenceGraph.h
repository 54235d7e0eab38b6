//===- DependenceGraph.h - Ordering constraints within a block --*- C++ -*-===//
//
// A Boost.Graph adjacency_list whose vertices are the ops of one block in
// order and whose edges say "u must stay before v", with the kind of
// dependence and the registers involved:
//
//  * RAW / WAR / WAW on register units (tuples, AGPRs, 16-bit halves,
//    EXEC/VCC/SCC/M0/MODE/FLAT_SCRATCH through implicit operands);
//  * Memory: loads and stores of address spaces that may alias (flat
//    aliases global, scratch and LDS; SMEM loads read global);
//  * Order: side-effecting ops (barriers, messages, s_setreg, cache
//    control, s_sleep/s_setprio/s_trap, ...) stay ordered with each other
//    and with every memory op;
//  * WaitCount: a memory op before an s_waitcnt that counts it (moving it
//    below the wait changes which ops the wait covers);
//  * WaitUse: the s_waitcnt that completes a memory op before the first op
//    that reads or overwrites its result (from this block or in flight at
//    block entry);
//  * WaitFence: an s_waitcnt stays before the fence-like ops after it
//    (barriers, stores, atomics, messages, ...), which rely on what it
//    completed;
//  * Hazard: a producer/consumer pair of the hazard table (the distance
//    between them must stay at least Required wait states, or s_nops must
//    be added);
//  * Control: everything stays before the terminator; calls and
//    unknown-register ops are full barriers.
//
// Edges are built from the last writer / readers-since-last-write of each
// unit, so the transitive closure is the full relation and a move across a
// contiguous range needs only the direct edges between the moved op and
// the ops it passes.
//
//===----------------------------------------------------------------------===//

#ifndef ASMEVO_ANALYSIS_DEPENDENCEGRAPH_H
#define ASMEVO_ANALYSIS_DEPENDENCEGRAPH_H

#include "asmevo/Analysis/Hazards.h"
#include "asmevo/Analysis/Waitcnt.h"

#include <boost/graph/adjacency_list.hpp>

namespace asmevo {

enum class DepKind : uint8_t {
  RAW,
  WAR,
  WAW,
  Memory,
  Order,
  WaitCount,
  WaitUse,
  WaitFence,
  Hazard,
  Control
};
const char *depKindName(DepKind K);

struct DepVertex {
  mlir::Operation *Op = nullptr;
};

struct DepEdge {
  DepKind Kind = DepKind::RAW;
  UnitList Units;           ///< registers / pseudo units involved
  int Required = 0;         ///< Hazard: wait states needed
  const HazardRule *Rule = nullptr;
  mlir::Operation *Via = nullptr; ///< WaitUse: the memory op waited for
};

using DepGraphBase =
    boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS,
                          DepVertex, DepEdge>;

class DependenceGraph {
public:
  using Graph = DepGraphBase;
  using Vertex = boost::graph_traits<Graph>::vertex_descriptor;
  using Edge = boost::graph_traits<Graph>::edge_descriptor;

  struct Options {
    bool Hazards = true; ///< add Hazard edges (costs a hazard walk per op)
    /// Order memory ops and waits with the modelled internal calls as with
    /// a side effect, although they need not be (InstInfo::
    /// CalleeEffectsKnown): amdgcn-schedule's fallback order for a block
    /// whose freer order needs more waits than it has.
    bool CallsOrderMemory = false;
  };

  /// Builds the graph of B. Wait edges need the state of memory ops in
  /// flight at block entry: pass the function's WaitcntAnalysis, or null to
  /// consider only ops issued in B.
  DependenceGraph(mlir::Block *B, InstInfoCache &Cache,
                  const WaitcntAnalysis *Waits);
  DependenceGraph(mlir::Block *B, InstInfoCache &Cache,
                  const WaitcntAnalysis *Waits, Options Opts);
  /// Builds the graph of an explicit op sequence (in that order; e.g. the
  /// ops of a block without the ones a transaction deleted).
  DependenceGraph(llvm::ArrayRef<mlir::Operation *> Ops, InstInfoCache &Cache,
                  const PendingState *EntryState, Options Opts);

  Graph &graph() { return G; }
  const Graph &graph() const { return G; }
  unsigned size() const { return unsigned(boost::num_vertices(G)); }
  mlir::Operation *op(Vertex V) const { return G[V].Op; }
  /// Vertex of an op, or -1.
  int vertexOf(mlir::Operation *Op) const;

  /// The direct edges from U to V (possibly several kinds).
  void edgesBetween(Vertex U, Vertex V, llvm::SmallVectorImpl<Edge> &Out) const;
  /// "RAW on v2: [0x10] v_mov_b32 ... before [0x18] v_add_u32 ..."
  std::string describe(Edge E) const;
  /// Graphviz text (for debugging and docs).
  std::string toDot() const;

private:
  void build(llvm::ArrayRef<mlir::Operation *> Ops,
             const PendingState *EntryState, Options Opts);
  void addEdge(Vertex U, Vertex V, DepKind K, llvm::ArrayRef<uint16_t> Units,
               int Required = 0, const HazardRule *Rule = nullptr,
               mlir::Operation *Via = nullptr);

  InstInfoCache &Cache;
  Graph G;
  llvm::DenseMap<mlir::Operation *, unsigned> Index;
  llvm::DenseMap<std::pair<unsigned, unsigned>, llvm::SmallVector<Edge, 1>>
      EdgeIndex;
};

} // namespace asmevo

#endif // ASMEVO_ANALYSIS_DEPENDENCEGRAPH_H
