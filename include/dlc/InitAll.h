//===- InitAll.h - register everything dlc provides -------------*- C++ -*-===//
#ifndef DLC_INITALL_H
#define DLC_INITALL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace dlc {

/// dlc's own dialects (upstream ones are registered by the tools).
void registerAllDialects(mlir::DialectRegistry &registry);

/// dlc's passes and the named pipelines of every target
/// (`--dlc-host-pipeline`, ...).
void registerAllPasses();

/// dlc-translate's translations: `--import-onnx` and the targets' emitters.
void registerAllTranslations();

} // namespace dlc

#endif // DLC_INITALL_H
