//===- SunwayHardware.h - one SW26010 core group, in numbers ----*- C++ -*-===//
//
// The limits and rates of the Sunway target in one place. Every number the
// compiler (verifiers, lowering, cost model) or the executor uses is a
// parameter of the module's `#dlc.hardware` (`target` dictionary), so a user
// describes a variant of the chip with `--hw name=value`; the defaults and
// their public sources are in docs/Targets/Sunway.md.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_DIALECT_SUNWAY_IR_SUNWAYHARDWARE_H
#define DLC_DIALECT_SUNWAY_IR_SUNWAYHARDWARE_H

#include "dlc/Dialect/DLC/IR/DLCDialect.h"

#include "llvm/ADT/SmallVector.h"

namespace dlc::sunway {

struct SunwayHardware {
  /// CPEs of the core group and the mesh they form.
  int64_t cpes = 64;
  int64_t meshRows = 8;
  int64_t meshCols = 8;
  double clockHz = 1.45e9;
  /// LDM per CPE, and what the CPE stack keeps of it.
  int64_t ldmBytes = 65536;
  int64_t stackReserveBytes = 8192;
  /// Alignment of LDM buffers: what an aligned floatv4 load needs.
  int64_t simdAlignBytes = 16;
  /// floatv4 lanes; flops of one fused multiply-add lane.
  int64_t vectorLanes = 4;
  /// Largest athread DMA length, block size and stride (an int of bytes).
  int64_t maxDmaBytes = 2147483647;
  /// Granularity of DMA addresses, lengths, block sizes and strides.
  int64_t dmaAlignmentBytes = 4;
  /// The DMA bandwidth of the core group against the block size
  /// (swCandle's STREAM triad, 64 CPEs).
  llvm::SmallVector<double> dmaCurveBlockBytes = {64,   256,   1024, 2048,
                                                  8192, 16384, 24576};
  llvm::SmallVector<double> dmaCurveBytesPerSecond = {
      2.4e9, 8.3e9, 14.8e9, 18.0e9, 21.3e9, 22.1e9, 22.3e9};
  /// What athread_spawn plus athread_join cost, in cycles.
  double spawnOverheadCycles = 14500;
  double barrierCycles = 100;
  double regcommLatencyCycles = 11;
  int64_t regcommFifoDepth = 4;
  double divideCycles = 32;
  /// A CPE's scalar load or store of main memory (gld/gst; CPEs have no
  /// data cache).
  double mainMemoryAccessCycles = 278;

  /// The defaults (no `--hw`).
  SunwayHardware() = default;
  /// The description in force for `op`'s module: the defaults, overridden
  /// by what its `#dlc.hardware` target parameters say.
  static SunwayHardware get(mlir::Operation *op);
  static SunwayHardware get(HardwareAttr hardware);
  /// The target dictionary of #dlc.hardware with every parameter above.
  mlir::DictionaryAttr toTargetDictionary(mlir::MLIRContext *context) const;
  /// Bytes of LDM left to a kernel's buffers.
  int64_t getBufferBytes() const { return ldmBytes - stackReserveBytes; }
  /// Peak floating-point operations per cycle of the core group.
  double getPeakFlopsPerCycle() const { return cpes * vectorLanes * 2.0; }
  /// Checks the parameters (counts positive, curve increasing, ...).
  mlir::LogicalResult
  verify(llvm::function_ref<mlir::InFlightDiagnostic()> emitError) const;
};

} // namespace dlc::sunway

#endif // DLC_DIALECT_SUNWAY_IR_SUNWAYHARDWARE_H
