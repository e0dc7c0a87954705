//===- ISA.cpp - the tables of ISA.def, encoding and decoding -------------===//

#include "dlc/Target/Snowflake/ISA.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <array>

using namespace llvm;
using namespace dlc::snowflake;

namespace {

#define DLC_UNPAREN(...) __VA_ARGS__
#define F(name, kind, lsb, width)                                              \
  FieldInfo { #name, FieldKind::kind, lsb, width }

/// One array per instruction; its first entry is a placeholder so that an
/// instruction without operands still has an array.
namespace fields {
#define SNOWFLAKE_INSTRUCTION(Name, mnemonic, opcode, unit, cost, list, sem)   \
  constexpr FieldInfo Name[] = {F(none, Flag, 0, 0), DLC_UNPAREN list};
#include "dlc/Target/Snowflake/ISA.def"
} // namespace fields

const InstructionInfo kInstructions[] = {
#define SNOWFLAKE_INSTRUCTION(Name, mnemonic, opcode, unit, cost, list, sem)   \
  {Opcode::Name,                                                               \
   mnemonic,                                                                   \
   Unit::unit,                                                                 \
   CostKind::cost,                                                             \
   ArrayRef<FieldInfo>(fields::Name).drop_front(),                             \
   sem},
#include "dlc/Target/Snowflake/ISA.def"
};

#undef F
#undef DLC_UNPAREN

/// The table indexed by opcode.
const std::array<const InstructionInfo *, 64> &getByOpcode() {
  static const std::array<const InstructionInfo *, 64> table = [] {
    std::array<const InstructionInfo *, 64> byOpcode{};
    for (const InstructionInfo &info : kInstructions)
      byOpcode[static_cast<unsigned>(info.opcode)] = &info;
    return byOpcode;
  }();
  return table;
}

uint32_t getFieldMask(const FieldInfo &field) {
  return field.width >= 32 ? ~0u : ((1u << field.width) - 1) << field.lsb;
}

} // namespace

ArrayRef<InstructionInfo> dlc::snowflake::getInstructions() {
  return kInstructions;
}

const InstructionInfo *dlc::snowflake::lookupOpcode(unsigned opcode) {
  return opcode < 64 ? getByOpcode()[opcode] : nullptr;
}

const InstructionInfo *dlc::snowflake::lookupMnemonic(StringRef mnemonic) {
  static const StringMap<const InstructionInfo *> table = [] {
    StringMap<const InstructionInfo *> byName;
    for (const InstructionInfo &info : kInstructions)
      byName[info.mnemonic] = &info;
    return byName;
  }();
  return table.lookup(mnemonic);
}

StringRef dlc::snowflake::getUnitName(Unit unit) {
  switch (unit) {
  case Unit::Control:
    return "control";
  case Unit::MAC:
    return "MAC";
  case Unit::MAX:
    return "MAX";
  case Unit::LSU:
    return "LSU";
  }
  llvm_unreachable("unit");
}

StringRef dlc::snowflake::getCostDescription(CostKind cost) {
  switch (cost) {
  case CostKind::Issue:
    return "1";
  case CostKind::Branch:
    return "1, + branch_penalty_cycles when taken";
  case CostKind::Sync:
    return "1, then until the units are idle";
  case CostKind::Fixed1:
    return "1";
  case CostKind::TraceLength:
    return "rl";
  case CostKind::WriteBack:
    return "ceil(rn / vector_lanes)";
  case CostKind::VectorLength:
    return "ceil(rl / vector_lanes)";
  case CostKind::Accumulators:
    return "2 x 64 / vector_lanes";
  case CostKind::Transfer:
    return "rows x ceil(rl x 2 / port_bytes) beats at the unit's port and "
           "the shared DRAM bandwidth, + DRAM latency";
  }
  llvm_unreachable("cost");
}

StringRef dlc::snowflake::getFieldKindName(FieldKind kind) {
  switch (kind) {
  case FieldKind::Reg:
    return "register";
  case FieldKind::SImm:
    return "signed";
  case FieldKind::UImm:
    return "unsigned";
  case FieldKind::Target:
    return "branch offset";
  case FieldKind::Mask:
    return "mask";
  case FieldKind::Flag:
    return "flag";
  }
  llvm_unreachable("field kind");
}

int64_t dlc::snowflake::getFieldMin(const FieldInfo &field) {
  if (field.kind == FieldKind::SImm || field.kind == FieldKind::Target)
    return -(int64_t(1) << (field.width - 1));
  return 0;
}

int64_t dlc::snowflake::getFieldMax(const FieldInfo &field) {
  if (field.kind == FieldKind::SImm || field.kind == FieldKind::Target)
    return (int64_t(1) << (field.width - 1)) - 1;
  return (int64_t(1) << field.width) - 1;
}

int64_t Instruction::get(StringRef field) const {
  for (auto [info, value] : llvm::zip(info->fields, operands))
    if (info.name == field)
      return value;
  llvm_unreachable("no such field");
}

Expected<uint32_t> dlc::snowflake::encode(const Instruction &inst) {
  if (inst.operands.size() != inst.info->fields.size())
    return createStringError(
        formatv("'{0}' takes {1} operands, got {2}", inst.info->mnemonic,
                inst.info->fields.size(), inst.operands.size())
            .str());
  uint32_t word = static_cast<uint32_t>(inst.info->opcode) << kOpcodeLsb;
  for (auto [field, value] : llvm::zip(inst.info->fields, inst.operands)) {
    if (value < getFieldMin(field) || value > getFieldMax(field))
      return createStringError(
          formatv("'{0}' operand {1} = {2} is outside {3}..{4}",
                  inst.info->mnemonic, field.name, value, getFieldMin(field),
                  getFieldMax(field))
              .str());
    word |= (static_cast<uint32_t>(value) << field.lsb) & getFieldMask(field);
  }
  return word;
}

Expected<Instruction> dlc::snowflake::decode(uint32_t word) {
  unsigned opcode = word >> kOpcodeLsb;
  Instruction inst;
  inst.info = lookupOpcode(opcode);
  if (!inst.info)
    return createStringError(formatv("unknown opcode {0:x2}", opcode).str());
  uint32_t used = 0x3fu << kOpcodeLsb;
  for (const FieldInfo &field : inst.info->fields) {
    uint32_t bits = (word & getFieldMask(field)) >> field.lsb;
    int64_t value = bits;
    if ((field.kind == FieldKind::SImm || field.kind == FieldKind::Target) &&
        (bits >> (field.width - 1)))
      value -= int64_t(1) << field.width;
    inst.operands.push_back(value);
    used |= getFieldMask(field);
  }
  if (word & ~used)
    return createStringError(
        formatv("'{0}' with bits {1:x8} set outside its fields",
                inst.info->mnemonic, word & ~used)
            .str());
  return inst;
}

Error dlc::snowflake::verifyISATable() {
  StringMap<unsigned> mnemonics;
  for (const InstructionInfo &info : kInstructions) {
    if (!mnemonics.try_emplace(info.mnemonic, 0).second)
      return createStringError("mnemonic '" + info.mnemonic +
                               "' is defined twice");
    if (lookupOpcode(static_cast<unsigned>(info.opcode)) != &info)
      return createStringError("opcode of '" + info.mnemonic +
                               "' is used twice");
    uint32_t used = 0;
    for (const FieldInfo &field : info.fields) {
      if (field.width == 0 || field.lsb + field.width > kOpcodeLsb ||
          (used & getFieldMask(field)))
        return createStringError(
            formatv("field {0} of '{1}' overlaps the opcode or another field",
                    field.name, info.mnemonic)
                .str());
      used |= getFieldMask(field);
    }
  }
  return Error::success();
}

Error dlc::snowflake::printISAReference(raw_ostream &os) {
  if (Error error = verifyISATable())
    return error;
  os << "<!-- Generated by `dlc-translate --snowflake-isa-reference`"
        " from include/dlc/Target/Snowflake/ISA.def; do not edit. -->\n\n"
     << "# Snowflake ISA version " << kISAVersion << ": the instructions\n\n"
     << "32-bit words, opcode in bits 31..26. Operand fields are listed as "
        "`name[msb:lsb]` with their kind; registers are r0..r"
     << kNumRegisters - 1
     << " (r0 reads as 0). Buffer addresses and lengths count 16-bit "
        "elements.\n\n"
     << "| opcode | mnemonic | operands | unit | cycles on its unit | "
        "semantics |\n|---|---|---|---|---|---|\n";
  for (const InstructionInfo &info : kInstructions) {
    os << formatv("| {0:x2} | `{1}` | ", static_cast<unsigned>(info.opcode),
                  info.mnemonic);
    if (info.fields.empty())
      os << "-";
    llvm::interleave(
        info.fields, os,
        [&](const FieldInfo &field) {
          os << formatv("`{0}[{1}:{2}]` {3}", field.name,
                        field.lsb + field.width - 1, field.lsb,
                        getFieldKindName(field.kind));
        },
        ", ");
    os << " | " << getUnitName(info.unit) << " | "
       << getCostDescription(info.cost) << " | " << info.semantics << " |\n";
  }
  return Error::success();
}
