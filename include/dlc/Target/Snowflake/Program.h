//===- Program.h - Snowflake binary images and their assembly -*- C++ -*-===//
//
// A program is what the accelerator loads: the control core's instructions
// and a data section (the 16-bit weights) placed in DRAM. Its binary image
// (little-endian):
//
//   bytes  0..3   magic "DLCS"
//          4..7   ISA version (kISAVersion)
//          8..11  instruction words N
//         12..15  data bytes M (even: 16-bit elements)
//         16..23  DRAM element address of the data section
//         24..    N instruction words, then M data bytes
//
// The assembly text is what `dlc-translate --snowflake-disassemble` prints
// and `--snowflake-assemble` reads: text -> binary -> text -> binary is
// byte-identical.
//
//===----------------------------------------------------------------------===//

#ifndef DLC_TARGET_SNOWFLAKE_PROGRAM_H
#define DLC_TARGET_SNOWFLAKE_PROGRAM_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class SourceMgr;
class raw_ostream;
} // namespace llvm

namespace dlc::snowflake {

inline constexpr char kImageMagic[4] = {'D', 'L', 'C', 'S'};
inline constexpr size_t kImageHeaderBytes = 24;

struct Program {
  std::vector<uint32_t> text;
  uint64_t dataAddress = 0;
  std::vector<uint8_t> data;
};

/// The binary image of `program`.
void writeImage(const Program &program, llvm::raw_ostream &os);
/// The program of a binary image; an error names what is wrong (magic,
/// version, a section's size against the file's).
llvm::Expected<Program> readImage(llvm::ArrayRef<uint8_t> bytes);

/// Assembles the main buffer of `sourceMgr`; errors are reported through it
/// at the offending token.
mlir::LogicalResult assemble(llvm::SourceMgr &sourceMgr, Program &program);

/// The assembly text of `program`. `comments`, when not empty, holds one
/// note per instruction (the ONNX node it comes from), printed after the
/// address and encoding. Without `withData` the data section is one
/// comment (a listing of a model's instructions, without its weights). An
/// undecodable word is an error naming its address.
llvm::Error disassemble(const Program &program, llvm::raw_ostream &os,
                        llvm::ArrayRef<std::string> comments = {},
                        bool withData = true);

} // namespace dlc::snowflake

#endif // DLC_TARGET_SNOWFLAKE_PROGRAM_H
