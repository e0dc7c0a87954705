//===- SnowflakeEmission.h - snowflake.program to a binary image -*- C++
//-*-===//
#ifndef DLC_TARGET_SNOWFLAKE_SNOWFLAKEEMISSION_H
#define DLC_TARGET_SNOWFLAKE_SNOWFLAKEEMISSION_H

#include "dlc/Dialect/Snowflake/IR/SnowflakeOps.h"
#include "dlc/Target/Snowflake/Program.h"

#include <string>
#include <vector>

namespace dlc::snowflake {

/// A program as the hardware loads it, with where each instruction comes
/// from.
struct EmittedProgram {
  Program program;
  /// Per instruction: the ONNX node and op type ("conv1 (Conv)"), or empty.
  std::vector<std::string> comments;
  /// Per instruction: the index of its layer in the program's `layers`, or
  /// the number of layers for instructions of no layer (the final halt).
  std::vector<uint32_t> layerOfPc;
};

/// Lowers loops to branches and every op to its instruction, with the
/// registers dlc-snowflake-allocate-registers recorded.
mlir::FailureOr<EmittedProgram> emitProgram(ProgramOp program);

/// The program of `module` (exactly one).
mlir::FailureOr<ProgramOp> getProgram(mlir::ModuleOp module);

/// `--snowflake-emit-binary` and `--snowflake-emit-listing` for
/// dlc-translate.
void registerSnowflakeEmissionTranslations();

} // namespace dlc::snowflake

#endif // DLC_TARGET_SNOWFLAKE_SNOWFLAKEEMISSION_H
