//===- WriteFile.h - writing one output file --------------------*- C++ -*-===//
//
// Every file dlc writes (artifacts, manifests, tensors) goes through one
// function, so that a file that cannot be opened, written or closed is
// always an error naming it.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_SUPPORT_WRITEFILE_H
#define DLC_SUPPORT_WRITEFILE_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace dlc {

/// Writes `path` through `write`: "cannot write PATH: why" when it cannot
/// be opened or written, or what `write` returned.
llvm::Error
writeFile(llvm::StringRef path,
          llvm::function_ref<llvm::Error(llvm::raw_ostream &)> write);

} // namespace dlc

#endif // DLC_SUPPORT_WRITEFILE_H
