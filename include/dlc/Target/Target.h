//===- Target.h - the interface every dlc target implements -----*- C++ -*-===//
//
// A target is four things (ARCHITECTURE.md, "Targets plug in through one
// interface"): a hardware description with defaults, the pass pipeline from
// the imported dlc module to its lowest IR, a serializer that writes the
// artifacts of `dlc compile`, and an executor that runs them for `dlc run`.
// The driver, the conformance runner and the benchmarks only talk to this
// interface; a new target registers itself and touches no shared code.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_TARGET_TARGET_H
#define DLC_TARGET_TARGET_H

#include "dlc/Dialect/DLC/IR/DLCOps.h"
#include "dlc/Pipelines/Pipelines.h"
#include "dlc/Support/ArtifactManifest.h"
#include "dlc/Support/CostReport.h"
#include "dlc/Support/EntrySignature.h"
#include "dlc/Support/TargetReport.h"
#include "dlc/Support/Tensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dlc {

/// Numerical tolerance for comparing a target's outputs with the recorded
/// ones: |got - want| <= atol + rtol * |want|.
struct Tolerance {
  double rtol = 1e-3;
  double atol = 1e-5;
};

/// A compiled model ready to run on a target's executor.
class Executable {
public:
  virtual ~Executable() = default;
  /// The tensor-level inputs and outputs `run` takes and returns (what
  /// `dlc-record-entry-signature` recorded).
  virtual const EntrySignature &getSignature() const = 0;
  /// Runs once. `inputs` are in the order of the entry function's
  /// arguments; outputs come back in the order of its results. Inputs of the
  /// wrong number, kind or shape are an error.
  virtual llvm::Expected<std::vector<Tensor>>
  run(llvm::ArrayRef<Tensor> inputs) = 0;
  /// What the executor counted in the last `run`, in the report schema
  /// (source "simulated" or "measured"; `dlc run --report`).
  virtual llvm::Expected<TargetReport> getReport() const = 0;
};

class Target {
public:
  virtual ~Target() = default;

  /// The name used by `--target` and in expectation files.
  virtual llvm::StringRef getName() const = 0;
  virtual llvm::StringRef getDescription() const = 0;

  /// The operands of ONNX op type `opType` that this target compiles into
  /// its program (a weights-stationary accelerator's weights), by index. An
  /// ONNX test that feeds them from graph inputs is run specialised to its
  /// data set's values, like the static operands of ONNXInputBinding.h.
  virtual llvm::ArrayRef<int>
  getCompiledOperands(llvm::StringRef opType) const {
    return {};
  }

  /// Why this target does not run `op`, an op of an imported model's entry
  /// (its element types, its kind; constants only when the model returns
  /// them), or nothing when it may: such ops run on the host
  /// (dlc-partition-for-target). What the target's pipeline rejects
  /// beyond this falls back too, once the pipeline has said so; this hook
  /// only saves that attempt and gives the clearer reason.
  virtual std::optional<std::string>
  getUnsupportedReason(mlir::Operation *op) const {
    return std::nullopt;
  }

  /// Default numerical tolerance of this target against the host reference,
  /// on the machine `hardware` describes (its number formats).
  virtual Tolerance getDefaultTolerance(HardwareAttr hardware) const {
    return {};
  }

  /// The machine the shared memory passes compile for when the user
  /// overrides nothing.
  virtual HardwareAttr getDefaultHardware(mlir::MLIRContext *context) const = 0;

  /// Adds the passes that take an imported dlc module to this target's
  /// lowest IR (what serialize and load consume). The pipeline starts with
  /// `addHardwarePasses`.
  virtual void buildPipeline(mlir::OpPassManager &pm,
                             const PipelineOptions &options) const = 0;

  /// Adds `dlc-attach-hardware` with this target's defaults and the
  /// options' overrides.
  void addAttachHardware(mlir::OpPassManager &pm,
                         const PipelineOptions &options) const;

  /// The first passes of every buildPipeline: the machine description the
  /// options give, attached and checked (by default addAttachHardware;
  /// a target with presets expands them here). The driver runs them alone
  /// first, so that a wrong description is an error of the command line and
  /// not a reason for nodes to fall back.
  virtual void addHardwarePasses(mlir::OpPassManager &pm,
                                 const PipelineOptions &options) const {
    addAttachHardware(pm, options);
  }

  /// Checks the target's parameters of an attached description (what
  /// addHardwarePasses attached), emitting through `emitError`.
  virtual mlir::LogicalResult verifyHardware(
      HardwareAttr hardware,
      llvm::function_ref<mlir::InFlightDiagnostic()> emitError) const {
    return mlir::success();
  }

  /// Writes the artifacts of `dlc compile` for a module that went through
  /// buildPipeline into `outputDir` (which exists), with their manifest
  /// (`manifest` holds the shared fields; the target adds its records).
  virtual mlir::LogicalResult serialize(mlir::ModuleOp module,
                                        llvm::StringRef outputDir,
                                        ArtifactManifest manifest,
                                        const ModelCost &cost) const = 0;

  /// The compiler's prediction (source "predicted", DIR/report.json) for a
  /// module that went through buildPipeline; `cost` holds the tensor-level
  /// MACs and bytes of each ONNX node.
  virtual mlir::FailureOr<TargetReport>
  predictReport(mlir::ModuleOp module, const ModelCost &cost) const = 0;

  /// Prepares a module that went through buildPipeline for execution;
  /// `cost` as for predictReport.
  virtual mlir::FailureOr<std::unique_ptr<Executable>>
  load(mlir::ModuleOp module, const ModelCost &cost) const = 0;

  /// Prepares the artifacts `serialize` wrote into `dir` for execution
  /// (`dlc run DIR`): the loaders of binaries, traces and weights files run
  /// here.
  virtual mlir::FailureOr<std::unique_ptr<Executable>>
  loadArtifacts(llvm::StringRef dir, const ArtifactManifest &manifest,
                mlir::MLIRContext *context) const = 0;
};

/// The `#dlc.hardware` a manifest records (what `loadArtifacts` runs with);
/// an error at `loc` when it is not one.
mlir::FailureOr<HardwareAttr>
parseManifestHardware(const ArtifactManifest &manifest, mlir::Location loc);

/// Writes the artifact `name` into `dir` through `write` (writeFile); an
/// error at `anchor` naming the file when that fails. What `serialize`
/// writes goes through here.
mlir::LogicalResult
writeArtifact(mlir::Operation *anchor, llvm::StringRef dir,
              llvm::StringRef name,
              llvm::function_ref<llvm::Error(llvm::raw_ostream &)> write);

/// The first operand or result type of `op` that `accepts` rejects, printed,
/// or nothing: the common part of getUnsupportedReason.
std::optional<std::string>
findRejectedType(mlir::Operation *op,
                 llvm::function_ref<bool(mlir::Type)> accepts);

/// Registers a target under its name; called once per target at start-up.
void registerTarget(std::unique_ptr<Target> target);

/// The registered target called `name`, or null.
const Target *lookupTarget(llvm::StringRef name);

/// Names of every registered target, sorted.
std::vector<llvm::StringRef> getRegisteredTargetNames();

/// Registers every built-in target, its passes and its named pipeline
/// (`--dlc-<name>-pipeline` in dlc-opt).
void registerTargetPipelines();

/// Inserts every built-in target's dialects into `registry`.
void registerBuiltinTargetDialects(mlir::DialectRegistry &registry);

} // namespace dlc

#endif // DLC_TARGET_TARGET_H
