//===- ISA.h - dlc's Snowflake instruction set ----------------*- C++ -*-===//
//
// The instructions of ISA.def as data: what the encoder, the decoder, the
// assembler, the disassembler, the simulator and the generated docs use.
//
//===----------------------------------------------------------------------===//

#ifndef DLC_TARGET_SNOWFLAKE_ISA_H
#define DLC_TARGET_SNOWFLAKE_ISA_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace dlc::snowflake {

/// Version of the ISA (and of the binary image) this table describes.
inline constexpr uint32_t kISAVersion = 1;
inline constexpr unsigned kNumRegisters = 32;
inline constexpr unsigned kOpcodeLsb = 26;
/// The organisation the encodings fix (4-bit CU masks, 2-bit load/store
/// unit numbers, weights buffers 16 + 4 c + v, 64-channel write-backs).
inline constexpr unsigned kComputeUnits = 4;
inline constexpr unsigned kVMACsPerUnit = 4;
inline constexpr unsigned kLanes = 16;
inline constexpr unsigned kLoadStoreUnits = 4;
/// `ld`/`st` buffer numbers.
inline constexpr unsigned kAllMapsBuffer = 4;
inline constexpr unsigned kAllWeightsBuffer = 8;
inline constexpr unsigned kFirstWeightsBuffer = 16;
/// `sync` mask bits: LSU u, MAC of CU c, MAX of CU c.
inline constexpr unsigned kSyncLSUBit = 0;
inline constexpr unsigned kSyncMACBit = 4;
inline constexpr unsigned kSyncMAXBit = 8;

enum class Opcode : uint8_t {
#define SNOWFLAKE_INSTRUCTION(Name, mnemonic, opcode, unit, cost, fields, sem) \
  Name = opcode,
#include "dlc/Target/Snowflake/ISA.def"
};

enum class FieldKind { Reg, SImm, UImm, Target, Mask, Flag };

/// Where an instruction executes.
enum class Unit { Control, MAC, MAX, LSU };

/// How an instruction's cycles on its unit are counted (the simulator's
/// rules; docs/Targets/Snowflake.md gives their sources).
enum class CostKind {
  Issue,        // one control-core cycle
  Branch,       // one cycle, plus the branch penalty when taken
  Sync,         // one cycle, then stalls until the units are idle
  Fixed1,       // one cycle of the unit
  TraceLength,  // rl cycles of the unit (one map element per cycle)
  WriteBack,    // ceil(rn / vector_lanes) cycles of the unit
  VectorLength, // ceil(rl / vector_lanes) cycles of the unit
  Accumulators, // 2 x 64 / vector_lanes cycles: every fp32 accumulator of a
                // CU as two 16-bit elements
  Transfer,     // rows x rl x 2 bytes at the unit's port and the DRAM's rate
};

struct FieldInfo {
  llvm::StringLiteral name;
  FieldKind kind;
  unsigned lsb;
  unsigned width;
};

struct InstructionInfo {
  Opcode opcode;
  llvm::StringLiteral mnemonic;
  Unit unit;
  CostKind cost;
  llvm::ArrayRef<FieldInfo> fields;
  llvm::StringLiteral semantics;
};

/// Every instruction, in the order of ISA.def.
llvm::ArrayRef<InstructionInfo> getInstructions();
const InstructionInfo *lookupOpcode(unsigned opcode);
const InstructionInfo *lookupMnemonic(llvm::StringRef mnemonic);

llvm::StringRef getUnitName(Unit unit);
llvm::StringRef getCostDescription(CostKind cost);
llvm::StringRef getFieldKindName(FieldKind kind);

/// The range a field's value may take (registers 0..31, signed fields in
/// two's complement).
int64_t getFieldMin(const FieldInfo &field);
int64_t getFieldMax(const FieldInfo &field);

/// One decoded instruction: its table entry and one value per field.
struct Instruction {
  const InstructionInfo *info = nullptr;
  llvm::SmallVector<int64_t, 6> operands;

  int64_t get(llvm::StringRef field) const;
};

/// The word of `inst`; an error names the field out of range.
llvm::Expected<uint32_t> encode(const Instruction &inst);
/// The instruction of `word`; an error for an unknown opcode or bits set
/// outside every field.
llvm::Expected<Instruction> decode(uint32_t word);

/// Checks the table itself: unique mnemonics and opcodes, fields inside
/// bits 25..0 that do not overlap.
llvm::Error verifyISATable();

/// The generated ISA reference (docs/Targets/SnowflakeISA.md), once the
/// table is verified.
llvm::Error printISAReference(llvm::raw_ostream &os);

} // namespace dlc::snowflake

#endif // DLC_TARGET_SNOWFLAKE_ISA_H
