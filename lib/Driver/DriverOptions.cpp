//===- DriverOptions.cpp - the driver's shared helpers
//---------------------===//

#include "dlc/Driver/DriverOptions.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/WithColor.h"

using namespace dlc;

llvm::raw_ostream &dlc::driver::reportError() {
  return llvm::WithColor::error(llvm::errs(), "dlc");
}

const Target *dlc::driver::getTargetOrError(llvm::StringRef name) {
  if (const Target *target = lookupTarget(name))
    return target;
  reportError() << "unknown target '" << name << "'; known targets: "
                << llvm::join(getRegisteredTargetNames(), ", ") << "\n";
  return nullptr;
}
