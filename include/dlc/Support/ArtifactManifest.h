//===- ArtifactManifest.h - what a `dlc compile` directory holds -*- C++
//-*-===//
//
// Every target's `dlc compile -o DIR` writes DIR/dlc-artifacts.json: the
// target, the entry's tensor signature, the hardware description compiled
// for (attribute syntax) and the target's own records. `dlc run DIR` reads
// it to pick the target and to call its loader on the artifacts, so a
// compiled directory runs without the model or the compiler's IR.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_SUPPORT_ARTIFACTMANIFEST_H
#define DLC_SUPPORT_ARTIFACTMANIFEST_H

#include "dlc/Support/EntrySignature.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <string>

namespace dlc {

inline constexpr llvm::StringLiteral kArtifactManifestName =
    "dlc-artifacts.json";

struct ArtifactManifest {
  std::string target, model;
  EntrySignature signature;
  /// The #dlc.hardware in force, printed.
  std::string hardware;
  /// The target's own records.
  llvm::json::Object extra;
};

/// Writes DIR/dlc-artifacts.json.
llvm::Error writeArtifactManifest(llvm::StringRef dir,
                                  const ArtifactManifest &manifest);

/// Reads DIR/dlc-artifacts.json; the errors name the file and the field.
llvm::Expected<ArtifactManifest> readArtifactManifest(llvm::StringRef dir);

/// True when `dir` holds a dlc-artifacts.json.
bool isCompiledDirectory(llvm::StringRef dir);

} // namespace dlc

#endif // DLC_SUPPORT_ARTIFACTMANIFEST_H
