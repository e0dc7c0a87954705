//===- WriteFile.cpp - writing one output file ----------------------------===//

#include "dlc/Support/WriteFile.h"

#include "llvm/Support/FileSystem.h"

llvm::Error
dlc::writeFile(llvm::StringRef path,
               llvm::function_ref<llvm::Error(llvm::raw_ostream &)> write) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return llvm::createStringError("cannot write " + path + ": " +
                                   ec.message());
  if (llvm::Error error = write(os))
    return error;
  os.close();
  if (os.has_error())
    return llvm::createStringError("cannot write " + path + ": " +
                                   os.error().message());
  return llvm::Error::success();
}
