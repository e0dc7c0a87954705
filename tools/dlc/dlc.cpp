//===- dlc.cpp - the dlc compiler driver ----------------------------------===//
//
//   dlc compile MODEL --target T -o DIR
//   dlc run MODEL_OR_TESTDIR --target T [--rtol X] [--atol Y] [--seed N]
//                                       [--write-outputs DIR]
//   dlc targets
//
// MODEL is a binary .onnx file, ONNX's text syntax (.onnxtxt) or a .mlir
// file in the dlc dialect. This file only parses the command line: the work
// is in the driver library (include/dlc/Driver), which only talks to the
// Target interface, so every target gets the same commands.
//
// The command is the first argument and every option is parsed by one
// llvm::cl parser: that keeps MLIR's own options (--mlir-print-ir-after-all,
// --mlir-timing, ...) working after the command, which llvm::cl's
// subcommands would not allow. Options that do not belong to the chosen
// command are rejected by hand.
//
//===----------------------------------------------------------------------===//

#include "dlc/Dialect/DLC/IR/NodeLocation.h"
#include "dlc/Driver/Compile.h"
#include "dlc/Driver/ModelLoading.h"
#include "dlc/Driver/Run.h"
#include "dlc/InitAll.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

using namespace dlc;
using namespace mlir;
namespace cl = llvm::cl;

namespace {

cl::OptionCategory dlcCategory("dlc options");

cl::list<std::string> positionalArgs(cl::Positional, cl::desc("COMMAND INPUT"),
                                     cl::cat(dlcCategory));

cl::opt<std::string>
    targetName("target", cl::init("host"),
               cl::desc("Target to compile for and run on (see `dlc "
                        "targets`; default: host)"),
               cl::value_desc("name"), cl::cat(dlcCategory));

cl::opt<std::string> outputDir("o",
                               cl::desc("compile: directory for the artifacts "
                                        "(created if missing)"),
                               cl::value_desc("dir"), cl::cat(dlcCategory));

cl::opt<std::string> hardwareOverrides(
    "hw",
    cl::desc("Overrides of the target's hardware description, comma-separated "
             "name=value entries (local_memory_bytes=64K,banks=4; see "
             "`#dlc.hardware` in the user guide)"),
    cl::value_desc("entries"), cl::cat(dlcCategory));

cl::opt<LoopOrder> loopOrderOption(
    "loop-order", cl::init(LoopOrder::Auto),
    cl::desc("Order of the tile loops of nests that read maps and kernels"),
    getLoopOrderValues(), cl::cat(dlcCategory));

cl::opt<BankLayoutMode> layoutModeOption(
    "layout-mode", cl::init(BankLayoutMode::Global),
    cl::desc("How bank layouts are chosen for a banked local memory"),
    getBankLayoutModeValues(), cl::cat(dlcCategory));

cl::opt<bool> eliminateCopiesOption(
    "eliminate-copies", cl::init(true),
    cl::desc("Run the data-movement elimination (dlc-data-movement-"
             "elimination); =false keeps every copy, to measure what it "
             "saves"),
    cl::cat(dlcCategory));

cl::opt<bool> balanceLoadsOption(
    "balance-loads", cl::init(true),
    cl::desc("Spread each layer's transfers over the load/store units by "
             "bytes (Snowflake); =false gives maps, weights and stores a "
             "unit each"),
    cl::cat(dlcCategory));

cl::opt<bool> printRemarks(
    "remarks",
    cl::desc("Print the passes' remarks (copies kept, buffers left in global "
             "memory, ...)"),
    cl::cat(dlcCategory));

cl::opt<double> rtolOption("rtol",
                           cl::desc("run: relative tolerance (default: the "
                                    "target's)"),
                           cl::cat(dlcCategory));
cl::opt<double> atolOption("atol",
                           cl::desc("run: absolute tolerance (default: the "
                                    "target's)"),
                           cl::cat(dlcCategory));

cl::opt<uint64_t> seedOption("seed", cl::init(0),
                             cl::desc("run: seed of the random inputs of a "
                                      "bare model"),
                             cl::cat(dlcCategory));

cl::opt<std::string>
    writeOutputsDir("write-outputs",
                    cl::desc("run: write the outputs (and, for a bare model, "
                             "the random inputs) as TensorProto .pb files "
                             "into this directory"),
                    cl::value_desc("dir"), cl::cat(dlcCategory));

cl::opt<std::string> runReportPath(
    "report",
    cl::desc("run: write what the target's executor counted in the last run "
             "(the report schema of the user guide) to this file"),
    cl::value_desc("file"), cl::cat(dlcCategory));

cl::opt<bool> printOutputs(
    "print-outputs",
    cl::desc("run: print every output (a summary and its first values)"),
    cl::cat(dlcCategory));

cl::opt<bool> bindStaticInputsOption(
    "bind-static-inputs", cl::init(true),
    cl::desc("run: on a test directory, compile the graph inputs that fix a "
             "shape or an attribute (Reshape's shape, Slice's starts, ...) as "
             "constants holding each data set's values (default: on)"),
    cl::cat(dlcCategory));

cl::opt<bool> listUnsupported(
    "list-unsupported",
    cl::desc("Report every unsupported ONNX node at once, not just the first"),
    cl::cat(dlcCategory));

cl::opt<bool> noFallback(
    "no-fallback",
    cl::desc("Make every node the target cannot run an error instead of "
             "running it on the host (host fallback is on by default)"),
    cl::cat(dlcCategory));

constexpr llvm::StringLiteral kUsage =
    "dlc: the dlc deep-learning compiler driver\n\n"
    "  dlc compile MODEL [--target T] -o DIR\n"
    "      import MODEL, write DIR/model.dlc.mlir, run the target's "
    "pipeline,\n"
    "      write the target's artifacts, DIR/report.json and\n"
    "      DIR/memory_report.json (transfers per node; --hw to describe the\n"
    "      machine's local memory)\n"
    "  dlc run MODEL_OR_DIR [--target T] [--rtol X] [--atol Y] "
    "[--seed N]\n"
    "          [--write-outputs DIR] [--print-outputs] [--report FILE]\n"
    "      compile and execute; on an ONNX backend-test directory "
    "(model.onnx,\n"
    "      test_data_set_*/input_*.pb, output_*.pb) compare every output and\n"
    "      exit non-zero on a mismatch, on a bare model run random inputs; on\n"
    "      a directory written by `dlc compile`, load its artifacts instead\n"
    "      of compiling; --report writes what the executor counted\n"
    "  dlc targets\n"
    "      list the targets\n\n"
    "MODEL: .onnx, ONNX text syntax (.onnxtxt), or .mlir in the dlc dialect\n"
    "(a test directory may hold model.onnxtxt or model.mlir instead).\n"
    "MLIR's options apply too (--mlir-print-ir-after-all, --mlir-timing, ...;\n"
    "see --help-hidden).\n";

llvm::raw_ostream &error() { return dlc::driver::reportError(); }

/// Rejects the options given that `command` does not take.
LogicalResult checkOptionsFor(llvm::StringRef command) {
  struct Restricted {
    llvm::StringRef name;
    bool given;
    bool allowed;
  };
  bool isCompile = command == "compile", isRun = command == "run";
  Restricted options[] = {
      {"-o", outputDir.getNumOccurrences() > 0, isCompile},
      {"--rtol", rtolOption.getNumOccurrences() > 0, isRun},
      {"--atol", atolOption.getNumOccurrences() > 0, isRun},
      {"--seed", seedOption.getNumOccurrences() > 0, isRun},
      {"--write-outputs", writeOutputsDir.getNumOccurrences() > 0, isRun},
      {"--print-outputs", printOutputs.getNumOccurrences() > 0, isRun},
      {"--report", runReportPath.getNumOccurrences() > 0, isRun},
      {"--bind-static-inputs", bindStaticInputsOption.getNumOccurrences() > 0,
       isRun},
  };
  for (const Restricted &option : options) {
    if (option.given && !option.allowed) {
      error() << option.name << " does not apply to `dlc " << command << "`\n";
      return failure();
    }
  }
  return success();
}

/// The command line, for the driver library.
driver::DriverOptions getDriverOptions() {
  driver::DriverOptions options;
  options.target = targetName;
  options.targetGiven = targetName.getNumOccurrences() > 0;
  options.hardware = hardwareOverrides;
  options.loopOrder = loopOrderOption;
  options.layoutMode = layoutModeOption;
  options.balanceLoads = balanceLoadsOption;
  options.eliminateCopies = eliminateCopiesOption;
  options.listUnsupported = listUnsupported;
  options.noFallback = noFallback;
  if (rtolOption.getNumOccurrences())
    options.rtol = rtolOption;
  if (atolOption.getNumOccurrences())
    options.atol = atolOption;
  options.seed = seedOption;
  options.writeOutputsDir = writeOutputsDir;
  options.reportPath = runReportPath;
  options.printOutputs = printOutputs;
  options.bindStaticInputs = bindStaticInputsOption;
  return options;
}

int listTargets() {
  for (llvm::StringRef name : getRegisteredTargetNames())
    llvm::outs() << name << ": " << lookupTarget(name)->getDescription()
                 << "\n";
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  // `--mlir-print-ir-after=<pass>` and friends take the names of passes
  // registered before the pass manager's options are.
  mlir::registerAllPasses();
  dlc::registerAllPasses();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerAsmPrinterCLOptions();
  registerDefaultTimingManagerCLOptions();
  cl::HideUnrelatedOptions(dlcCategory);
  cl::ParseCommandLineOptions(argc, argv, kUsage);

  if (positionalArgs.empty()) {
    llvm::errs() << kUsage;
    return 1;
  }
  llvm::StringRef command = positionalArgs[0];
  if (command != "compile" && command != "run" && command != "targets") {
    error() << "unknown command '" << command
            << "'; expected compile, run or targets (see dlc --help)\n";
    return 1;
  }
  if (failed(checkOptionsFor(command)))
    return 1;
  if (command == "targets")
    return listTargets();
  if (positionalArgs.size() != 2) {
    error() << "`dlc " << command << "` takes exactly one input\n";
    return 1;
  }

  DialectRegistry registry;
  driver::registerDriverDialects(registry);
  MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnosticHandler(sourceMgr, &context);
  // Diagnostics about an ONNX node name the model and the node.
  ScopedDiagnosticHandler nodeDiagnostics(
      &context, makeONNXNodeDiagnosticHandler(llvm::errs()));
  // Passes explain their choices in remarks (a copy kept, a buffer left in
  // global memory); they are for dlc-opt users unless asked for.
  ScopedDiagnosticHandler remarkFilter(&context, [](Diagnostic &diagnostic) {
    return success(diagnostic.getSeverity() == DiagnosticSeverity::Remark &&
                   !printRemarks);
  });

  driver::DriverOptions options = getDriverOptions();
  if (command == "compile") {
    if (outputDir.empty()) {
      error() << "`dlc compile` needs an output directory (-o DIR)\n";
      return 1;
    }
    return failed(driver::compileModel(positionalArgs[1], outputDir, options,
                                       context, sourceMgr))
               ? 1
               : 0;
  }
  return driver::runModel(positionalArgs[1], options, context, sourceMgr);
}
