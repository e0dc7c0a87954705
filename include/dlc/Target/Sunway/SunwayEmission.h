//===- SunwayEmission.h - the files dlc writes for the SW26010 --*- C++ -*-===//
//
// From the sunway-level module (`--dlc-sunway-pipeline`): the MPE file
// host.c and the CPE file slave.c (through EmitC), the model's header
// model.h, the weights file weights.bin and the Makefile. The same
// functions serve `dlc compile --target sunway`, the executor and the
// `dlc-translate --sunway-to-*` translations.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_TARGET_SUNWAY_SUNWAYEMISSION_H
#define DLC_TARGET_SUNWAY_SUNWAYEMISSION_H

#include "dlc/Support/EntrySignature.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace dlc::sunway {

/// Where the constants of the model lie in the weights payload.
struct WeightsLayout {
  struct Entry {
    std::string symbol;
    int64_t offset = 0, bytes = 0;
  };
  std::vector<Entry> entries;
  int64_t bytes = 0;
  uint64_t hash = 0;
  /// The payload itself (every constant at its offset, zero padding).
  std::string payload;
};

/// Lays the module's memref.globals out (64-byte aligned, in order). Fails
/// with an error on a global that is not an initialised constant.
mlir::FailureOr<WeightsLayout> layOutWeights(mlir::ModuleOp module);

/// The C type of a tensor element (float, int64_t, bool, ...).
llvm::StringRef getSunwayCType(ElementKind kind);

/// The two C files of `module` (not modified; the conversion runs on a
/// clone).
mlir::LogicalResult emitSunwayC(mlir::ModuleOp module, llvm::raw_ostream &host,
                                llvm::raw_ostream &slave);

/// model.h: the model's one entry point.
void emitSunwayHeader(const EntrySignature &signature, llvm::raw_ostream &os);

/// weights.bin: header (magic, version, size, checksum) and payload.
void emitSunwayWeights(const WeightsLayout &weights, llvm::raw_ostream &os);

/// The Makefile: the real machine's sw5cc build, and `make emulation` with
/// the system C compiler against dlc's emulation library.
void emitSunwayMakefile(llvm::raw_ostream &os);

/// Writes every artifact of `module` into `dir`, the ABI header included.
mlir::LogicalResult writeSunwayArtifacts(mlir::ModuleOp module,
                                         llvm::StringRef dir);

/// Registers the `dlc-translate` translations `--sunway-to-host-c`,
/// `--sunway-to-slave-c` and `--sunway-to-header`.
void registerSunwayTranslations();

} // namespace dlc::sunway

#endif // DLC_TARGET_SUNWAY_SUNWAYEMISSION_H
