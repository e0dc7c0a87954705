//===- InferentiaEmission.h - inferentia.program to a trace -----*- C++ -*-===//
//
// The last step of the inferentia target: one inferentia.program becomes
// the trace the simulator executes (Trace.h), the bytes of its weights file
// and a listing for people.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_TARGET_INFERENTIA_INFERENTIAEMISSION_H
#define DLC_TARGET_INFERENTIA_INFERENTIAEMISSION_H

#include "dlc/Dialect/Inferentia/IR/InferentiaOps.h"
#include "dlc/Target/Inferentia/Trace.h"

#include "mlir/IR/BuiltinOps.h"

#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace dlc::inferentia {

/// The name of the weights file next to the trace (the header's
/// `weights_file`).
inline constexpr llvm::StringLiteral kWeightsFileName = "weights.bin";

/// A program as the simulator loads it.
struct EmittedTrace {
  Trace trace;
  /// DRAM from header.weightsAddress on, header.weightsBytes long.
  std::vector<uint8_t> weights;
  /// Per instruction: the ONNX node it computes ("conv1 (Conv)"), or empty.
  std::vector<std::string> nodes;
};

/// The trace of `program`: every instruction op, in order, becomes one
/// instruction (toInstruction, deps as indices); the header comes from the
/// program's attributes and its DRAM tensors; the weights from the
/// `value` of every DRAM tensor with role "weights". Errors are emitted on
/// the offending op.
mlir::FailureOr<EmittedTrace> emitTrace(ProgramOp program);

/// The inferentia.program of `module` (exactly one).
mlir::FailureOr<ProgramOp> getProgram(mlir::ModuleOp module);

/// One line per instruction: its index, engine (and DMA queue), opcode,
/// destination and sources, the fields its opcode uses, the instructions
/// it waits for and `nodes[index]` (when given), after a header comment.
void writeListing(const Trace &trace, llvm::ArrayRef<std::string> nodes,
                  llvm::raw_ostream &os);

/// Appends `value` as one element of `type` to `out`, little-endian (bf16
/// rounded to nearest, ties to even).
void appendElement(float value, DataType type, std::vector<uint8_t> &out);

/// `--inferentia-to-trace`, `--inferentia-to-listing` and
/// `--inferentia-to-weights` for dlc-translate.
void registerInferentiaEmissionTranslations();

} // namespace dlc::inferentia

#endif // DLC_TARGET_INFERENTIA_INFERENTIAEMISSION_H
