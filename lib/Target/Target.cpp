//===- Target.cpp - the registry of dlc targets ---------------------------===//

#include "dlc/Target/Target.h"
#include "dlc/Target/Passes.h"

#include "dlc/Support/WriteFile.h"
#include "dlc/Transforms/Passes.h"

#include "mlir/AsmParser/AsmParser.h"

#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <mutex>

using namespace dlc;

static llvm::StringMap<std::unique_ptr<Target>> &getRegistry() {
  static llvm::StringMap<std::unique_ptr<Target>> registry;
  return registry;
}

namespace dlc {
/// Calls `register<Name>Target()` of every library made by add_dlc_target
/// (generated into BuiltinTargets.cpp).
void registerBuiltinTargets();
} // namespace dlc

/// Built-in targets register lazily, on the first lookup, so that tools
/// need no start-up call.
static void ensureBuiltinTargets() {
  static std::once_flag once;
  std::call_once(once, [] { registerBuiltinTargets(); });
}

mlir::FailureOr<HardwareAttr>
dlc::parseManifestHardware(const ArtifactManifest &manifest,
                           mlir::Location loc) {
  mlir::MLIRContext *context = loc.getContext();
  context->loadDialect<DLCDialect>();
  auto hardware = llvm::dyn_cast_or_null<HardwareAttr>(
      mlir::parseAttribute(manifest.hardware, context));
  if (!hardware)
    return mlir::emitError(loc)
           << "the manifest's hardware '" << manifest.hardware
           << "' is not a #dlc.hardware description";
  return hardware;
}

mlir::LogicalResult
dlc::writeArtifact(mlir::Operation *anchor, llvm::StringRef dir,
                   llvm::StringRef name,
                   llvm::function_ref<llvm::Error(llvm::raw_ostream &)> write) {
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, name);
  if (llvm::Error error = writeFile(path, write))
    return anchor->emitError() << llvm::toString(std::move(error));
  return mlir::success();
}

std::optional<std::string>
dlc::findRejectedType(mlir::Operation *op,
                      llvm::function_ref<bool(mlir::Type)> accepts) {
  for (mlir::TypeRange types : {mlir::TypeRange(op->getOperandTypes()),
                                mlir::TypeRange(op->getResultTypes())})
    for (mlir::Type type : types)
      if (!accepts(type)) {
        std::string text;
        llvm::raw_string_ostream os(text);
        type.print(os);
        return text;
      }
  return std::nullopt;
}

void dlc::registerTarget(std::unique_ptr<Target> target) {
  llvm::StringRef name = target->getName();
  // Two targets under one name is a build error of dlc, not a user error.
  if (!getRegistry().try_emplace(name, std::move(target)).second)
    llvm::report_fatal_error(llvm::Twine("dlc target '") + name +
                             "' is registered twice");
}

const Target *dlc::lookupTarget(llvm::StringRef name) {
  ensureBuiltinTargets();
  auto it = getRegistry().find(name);
  return it == getRegistry().end() ? nullptr : it->second.get();
}

std::vector<llvm::StringRef> dlc::getRegisteredTargetNames() {
  ensureBuiltinTargets();
  std::vector<llvm::StringRef> names;
  for (auto &entry : getRegistry())
    names.push_back(entry.getKey());
  std::sort(names.begin(), names.end());
  return names;
}

void Target::addAttachHardware(mlir::OpPassManager &pm,
                               const PipelineOptions &options) const {
  mlir::MLIRContext context;
  context.loadDialect<DLCDialect>();
  AttachHardwareOptions attachOptions;
  attachOptions.hardware.clear();
  llvm::raw_string_ostream os(attachOptions.hardware);
  mlir::Attribute(getDefaultHardware(&context)).print(os);
  attachOptions.overrides = options.hardware;
  pm.addPass(createAttachHardware(attachOptions));
}

void dlc::registerTargetPipelines() {
  registerDLCTargetPasses();
  for (llvm::StringRef name : getRegisteredTargetNames()) {
    const Target *target = lookupTarget(name);
    // The registry copies the argument and the description.
    mlir::PassPipelineRegistration<PipelineOptions>(
        ("dlc-" + name + "-pipeline").str(),
        ("The whole `dlc compile --target " + name + "` pipeline").str(),
        [target](mlir::OpPassManager &pm, const PipelineOptions &options) {
          target->buildPipeline(pm, options);
        });
  }
}
