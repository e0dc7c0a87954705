//===- SnowflakeTarget.cpp - the Snowflake CNN accelerator ----------------===//
//
// What of the target exists so far: the ISA, its binary images and their
// assembly, as dlc-translate translations. The compiler, the dialect and
// the simulator come next (issue 9); until then `dlc targets` does not
// list snowflake.
//
//===----------------------------------------------------------------------===//

#include "dlc/Target/Snowflake/ISA.h"
#include "dlc/Target/Snowflake/Program.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace dlc::snowflake;

namespace dlc {

void registerSnowflakeTargetDialects(DialectRegistry &) {}

void registerSnowflakeTarget() {
  TranslateRegistration assembleTranslation(
      "snowflake-assemble", "Snowflake assembly text to a binary image",
      [](const std::shared_ptr<llvm::SourceMgr> &sourceMgr, raw_ostream &output,
         MLIRContext *) -> LogicalResult {
        Program program;
        if (failed(assemble(*sourceMgr, program)))
          return failure();
        writeImage(program, output);
        return success();
      });
  TranslateRegistration disassembleTranslation(
      "snowflake-disassemble", "A Snowflake binary image to assembly text",
      [](const std::shared_ptr<llvm::SourceMgr> &sourceMgr, raw_ostream &output,
         MLIRContext *context) -> LogicalResult {
        StringRef bytes =
            sourceMgr->getMemoryBuffer(sourceMgr->getMainFileID())->getBuffer();
        llvm::Expected<Program> program = readImage(ArrayRef(
            reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size()));
        llvm::Error error =
            program ? disassemble(*program, output) : program.takeError();
        if (error)
          return emitError(UnknownLoc::get(context))
                 << llvm::toString(std::move(error));
        return success();
      });
  TranslateRegistration referenceTranslation(
      "snowflake-isa-reference",
      "The Snowflake ISA reference (docs/Targets/SnowflakeISA.md); the input "
      "is ignored",
      [](const std::shared_ptr<llvm::SourceMgr> &, raw_ostream &output,
         MLIRContext *context) -> LogicalResult {
        if (llvm::Error error = printISAReference(output))
          return emitError(UnknownLoc::get(context))
                 << llvm::toString(std::move(error));
        return success();
      });
}

} // namespace dlc
