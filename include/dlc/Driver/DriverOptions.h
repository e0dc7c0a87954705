//===- DriverOptions.h - what dlc compile and dlc run take ------*- C++ -*-===//
//
// The driver library (lib/Driver) does the work of `dlc compile` and
// `dlc run`: model loading by format, the artifact layout, the reports and
// the conformance runner. tools/dlc only parses the command line into these
// options, so another front end (a benchmark harness, a Python binding)
// gets the same behaviour by calling the library.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_DRIVER_DRIVEROPTIONS_H
#define DLC_DRIVER_DRIVEROPTIONS_H

#include "dlc/Pipelines/Pipelines.h"
#include "dlc/Target/Target.h"

#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace dlc::driver {

struct DriverOptions {
  /// The target's name; `targetGiven` says whether the user chose it (a
  /// compiled directory then must have been compiled for it).
  std::string target = "host";
  bool targetGiven = false;
  /// The pipeline's options (PipelineOptions: --hw, --loop-order,
  /// --layout-mode, --balance-loads, --eliminate-copies).
  std::string hardware;
  LoopOrder loopOrder = LoopOrder::Auto;
  BankLayoutMode layoutMode = BankLayoutMode::Global;
  bool balanceLoads = true;
  bool eliminateCopies = true;
  /// The importer reports every unsupported node, not just the first.
  bool listUnsupported = false;
  /// What the target cannot run is an error instead of running on the host
  /// (Fallback.h).
  bool noFallback = false;

  // dlc run only.
  std::optional<double> rtol, atol; // Default: the target's tolerance.
  uint64_t seed = 0;                // Of a bare model's random inputs.
  std::string writeOutputsDir;      // TensorProto files of the outputs.
  std::string reportPath;           // What the executor counted.
  bool printOutputs = false;        // First values of every output.
  bool bindStaticInputs = true;     // See ONNXInputBinding.h.
};

/// The driver's error stream ("dlc: error: ").
llvm::raw_ostream &reportError();

/// The target called `name`, or an error listing the known ones.
const Target *getTargetOrError(llvm::StringRef name);

} // namespace dlc::driver

#endif // DLC_DRIVER_DRIVEROPTIONS_H
