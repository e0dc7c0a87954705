//===- TestAccessAnalysis.cpp - print the access analysis of each nest ----===//

#include "dlc/Analysis/AccessAnalysis.h"
#include "dlc/Analysis/Passes.h"

#include "llvm/Support/raw_ostream.h"

#include <memory>

namespace dlc {
#define GEN_PASS_DEF_TESTACCESSANALYSIS
#include "dlc/Analysis/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

namespace {

struct TestAccessAnalysis
    : public dlc::impl::TestAccessAnalysisBase<TestAccessAnalysis> {
  using Base::Base;

  void runOnOperation() override;
  void printNest(AnalysisContext &context, const NestAnalysis &nest,
                 unsigned index, StringRef function);
  void printFootprint(AnalysisContext &context, StringRef label, Value memref,
                      const std::optional<Footprint> &footprint);
};

} // namespace

static const char *accessKind(const AccessRelation &access) {
  return access.isWrite ? "store" : "load";
}

void TestAccessAnalysis::printFootprint(
    AnalysisContext &context, StringRef label, Value memref,
    const std::optional<Footprint> &footprint) {
  llvm::raw_ostream &os = llvm::outs();
  os << "  " << label << " " << context.getName(memref) << ": ";
  if (!footprint) {
    os << "unknown\n";
    return;
  }
  os << footprint->elements << " elements, " << footprint->bytes()
     << " bytes, box ";
  llvm::interleave(footprint->boxSizes, os, "x");
  os << " (" << footprint->boxElements << " elements, " << footprint->boxBytes()
     << " bytes)\n";
}

void TestAccessAnalysis::printNest(AnalysisContext &context,
                                   const NestAnalysis &nest, unsigned index,
                                   StringRef function) {
  llvm::raw_ostream &os = llvm::outs();
  os << "nest " << index << " in @" << function << ": "
     << nest.getLoops().size() << " loops, band depth " << nest.getBandDepth()
     << "\n";
  for (const LoopInfo &loop : nest.getLoops()) {
    os << "  loop " << loop.name << ": depth " << loop.depth << ", trip count ";
    if (loop.tripCount)
      os << *loop.tripCount;
    else
      os << "non-constant";
    os << "\n";
  }
  for (const NonAffineAccess &access : nest.getNonAffineAccesses()) {
    os << "  non-affine " << access.op->getName() << ": " << access.reason
       << "\n";
    access.op->emitWarning("non-affine access: ") << access.reason;
  }
  for (const AccessRelation &access : nest.getAccesses()) {
    os << "  " << accessKind(access) << " " << context.getName(access.memref)
       << ": " << access.relation.functionStr();
    if (access.isWrite)
      os << (access.relation.isInjective() ? " injective" : " not injective");
    os << "\n";
    if (access.rootMemref != access.memref)
      os << "    on " << context.getName(access.rootMemref) << ": "
         << access.rootRelation.functionStr() << "\n";
  }
  if (!nest.isAffine())
    return;
  for (Value memref : nest.getRootMemrefs())
    printFootprint(context, "footprint", memref, nest.getFootprint(memref));
  if (!tileSizes.empty()) {
    std::string label;
    llvm::raw_string_ostream labelStream(label);
    labelStream << "tile ";
    llvm::interleave(tileSizes, labelStream, "x");
    labelStream << " footprint";
    for (Value memref : nest.getRootMemrefs())
      printFootprint(context, label, memref,
                     nest.getTileFootprint(memref, tileSizes));
  }
  std::optional<CopyNest> copy = nest.getPureCopy();
  os << "  pure copy: " << (copy ? "yes" : "no") << "\n";
  if (copy) {
    const PresburgerRelation &store = copy->store->rootRelation;
    if (store.isInjective())
      os << "  copy inverse: " << store.inverse().str() << "\n";
  }
}

void TestAccessAnalysis::runOnOperation() {
  AnalysisContext context(getOperation());
  getOperation().walk([&](func::FuncOp function) {
    // Nests own their relations: keep them all alive until the function's
    // compositions are printed, then free them before the context.
    SmallVector<std::unique_ptr<NestAnalysis>> nests;
    for (Operation &op : function.getBody().getOps())
      if (auto loop = dyn_cast<affine::AffineForOp>(op))
        nests.push_back(std::make_unique<NestAnalysis>(context, loop));
    for (auto [index, nest] : llvm::enumerate(nests))
      printNest(context, *nest, index, function.getSymName());
    // Reads of a buffer that earlier copy nests wrote, seen through the
    // copies: what data-movement elimination would read instead.
    llvm::raw_ostream &os = llvm::outs();
    for (auto [readerIndex, readerNest] : llvm::enumerate(nests)) {
      for (const AccessRelation &reader : readerNest->getAccesses()) {
        if (reader.isWrite)
          continue;
        SmallVector<CopyNest> copies;
        SmallVector<unsigned> copyIndices;
        for (unsigned index = 0; index < readerIndex; ++index) {
          std::optional<CopyNest> copy = nests[index]->getPureCopy();
          if (copy && copy->store->rootMemref == reader.rootMemref) {
            copies.push_back(*copy);
            copyIndices.push_back(index);
          }
        }
        if (copies.empty())
          continue;
        os << "nest " << readerIndex << " load "
           << context.getName(reader.memref) << " through copy nest";
        for (unsigned index : copyIndices)
          os << " " << index;
        FailureOr<SmallVector<ReadThroughCopies>> reads =
            composeThroughCopies(reader, copies);
        if (failed(reads)) {
          os << ": not invertible (a store is not injective or copies "
                "overlap)\n";
          continue;
        }
        os << ":\n";
        PresburgerPointSet covered;
        for (const ReadThroughCopies &read : *reads) {
          os << "  from " << context.getName(read.source) << ": "
             << read.relation.functionStr();
          if (std::optional<unsigned> pieces =
                  read.relation.countAffinePieces())
            os << " (" << *pieces << " affine piece"
               << (*pieces == 1 ? "" : "s") << ")";
          os << "\n";
          // The same function as MLIR affine pieces, simplified within the
          // reader's iterations (what data-movement elimination emits).
          FailureOr<PiecewiseAffineMap> pieces =
              read.relation.toAffinePieces(&getContext(), reader.domain);
          if (failed(pieces)) {
            os << "    not expressible as affine pieces\n";
          } else {
            for (AffinePiece piece : pieces->pieces) {
              os << "    piece ";
              if (piece.condition)
                piece.condition.print(os);
              else
                os << "always";
              os << ": ";
              piece.map.print(os);
              os << "\n";
            }
          }
          covered = covered.unite(read.relation.domain());
        }
        os << "  covers "
           << (covered.isEqual(reader.domain) ? "the whole read"
                                              : "part of the read")
           << "\n";
      }
    }
  });
}
