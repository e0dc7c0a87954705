//===- NestDescription.h - what an affine compute nest computes -*- C++ -*-===//
//
// convert-linalg-to-affine-nests records on the outermost loop of every
// nest it creates the linalg op the nest computes (`dlc.nest`); the tiling
// passes keep it on the outermost loop of the tiled nest. This header reads
// and writes that record, so targets map nests onto their instructions by
// what they are.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_CONVERSION_NESTDESCRIPTION_H
#define DLC_CONVERSION_NESTDESCRIPTION_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinAttributes.h"

#include <optional>

namespace dlc {

/// The kinds of computation a target tells apart.
enum class NestClass {
  Convolution,
  Pooling,
  Contraction,
  Elementwise,
  Reduction,
  Fill,
  Copy,
  Other,
};

llvm::StringRef stringifyNestClass(NestClass kind);
std::optional<NestClass> symbolizeNestClass(llvm::StringRef name);

/// What a nest computes: the linalg op it was lowered from, over the
/// nest's loops (dimension i of the maps is the i-th loop, outermost first,
/// in the order of the untiled nest).
struct NestDescription {
  std::string op; // linalg op name without the dialect ("conv_2d_nchw_fchw")
  NestClass kind = NestClass::Other;
  llvm::SmallVector<int64_t> loops;        // static trip counts
  llvm::SmallVector<int64_t> reductions;   // positions of reduction loops
  llvm::SmallVector<mlir::AffineMap> maps; // inputs, then outputs
  llvm::SmallVector<int64_t> strides;      // convolutions and poolings
  llvm::SmallVector<int64_t> dilations;    // convolutions and poolings

  /// The description of `op` (which must have static loop ranges).
  static NestDescription describe(mlir::linalg::LinalgOp op);
  mlir::DictionaryAttr toAttr(mlir::MLIRContext *context) const;
  /// Null when `attr` is not a well-formed description.
  static std::optional<NestDescription> fromAttr(mlir::DictionaryAttr attr);
};

/// The description recorded on `loop` (the outermost loop of a nest), if
/// any.
std::optional<NestDescription> getNestDescription(mlir::Operation *loop);

/// Records `description` on `loop`.
void setNestDescription(mlir::Operation *loop,
                        const NestDescription &description);

} // namespace dlc

#endif // DLC_CONVERSION_NESTDESCRIPTION_H
