//===- Program.cpp - binary images, assembler and disassembler ------------===//

#include "dlc/Target/Snowflake/Program.h"

#include "dlc/Target/Snowflake/ISA.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

using namespace llvm;
using namespace dlc::snowflake;
using mlir::failure;
using mlir::LogicalResult;
using mlir::success;

void dlc::snowflake::writeImage(const Program &program, raw_ostream &os) {
  auto write32 = [&](uint32_t value) {
    char bytes[4];
    support::endian::write32le(bytes, value);
    os.write(bytes, 4);
  };
  os.write(kImageMagic, 4);
  write32(kISAVersion);
  write32(program.text.size());
  write32(program.data.size());
  char address[8];
  support::endian::write64le(address, program.dataAddress);
  os.write(address, 8);
  for (uint32_t word : program.text)
    write32(word);
  os.write(reinterpret_cast<const char *>(program.data.data()),
           program.data.size());
}

Expected<Program> dlc::snowflake::readImage(ArrayRef<uint8_t> bytes) {
  auto error = [](const Twine &message) {
    return createStringError("bad Snowflake image: " + message);
  };
  if (bytes.size() < kImageHeaderBytes)
    return error(formatv("{0} bytes, shorter than the {1}-byte header",
                         bytes.size(), kImageHeaderBytes));
  if (!std::equal(kImageMagic, kImageMagic + 4, bytes.begin()))
    return error("bad magic (not \"DLCS\")");
  uint32_t version = support::endian::read32le(bytes.data() + 4);
  if (version != kISAVersion)
    return error(formatv("ISA version {0}, this dlc reads version {1}", version,
                         kISAVersion));
  uint64_t words = support::endian::read32le(bytes.data() + 8);
  uint64_t dataBytes = support::endian::read32le(bytes.data() + 12);
  uint64_t textEnd = kImageHeaderBytes + 4 * words;
  if (textEnd > bytes.size())
    return error(formatv("the instruction section ({0} words) runs past the "
                         "end of the {1}-byte file",
                         words, bytes.size()));
  if (textEnd + dataBytes != bytes.size())
    return error(formatv("the data section is {0} bytes but the file holds "
                         "{1} after the instructions",
                         dataBytes, bytes.size() - textEnd));
  if (dataBytes % 2)
    return error(formatv("the data section is {0} bytes, not a whole number "
                         "of 16-bit elements",
                         dataBytes));
  Program program;
  program.dataAddress = support::endian::read64le(bytes.data() + 16);
  for (uint64_t i = 0; i < words; ++i)
    program.text.push_back(
        support::endian::read32le(bytes.data() + kImageHeaderBytes + 4 * i));
  program.data.assign(bytes.begin() + textEnd, bytes.end());
  return program;
}

namespace {

/// An instruction waiting for its labels.
struct PendingInstruction {
  const InstructionInfo *info;
  StringRef mnemonic;
  SmallVector<StringRef> operands;
};

bool isIdentifier(StringRef token) {
  return !token.empty() && (isAlpha(token.front()) || token.front() == '_') &&
         llvm::all_of(token, [](char c) { return isAlnum(c) || c == '_'; });
}

} // namespace

LogicalResult dlc::snowflake::assemble(SourceMgr &sourceMgr, Program &program) {
  StringRef buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getBuffer();
  auto error = [&](StringRef at, const Twine &message) {
    sourceMgr.PrintMessage(SMLoc::getFromPointer(at.data()),
                           SourceMgr::DK_Error, message);
    return failure();
  };
  enum class Section { None, Text, Data } section = Section::None;
  bool sawData = false;
  StringMap<int64_t> labels;
  std::vector<PendingInstruction> pending;
  SmallVector<StringRef> lines;
  buffer.split(lines, '\n');
  for (StringRef line : lines) {
    line = line.take_until([](char c) { return c == '#'; }).trim();
    if (line.empty())
      continue;
    // Labels, possibly several, before a statement.
    while (true) {
      size_t colon = line.find(':');
      if (colon == StringRef::npos || !isIdentifier(line.take_front(colon)))
        break;
      StringRef label = line.take_front(colon);
      if (section != Section::Text)
        return error(label, "a label outside the .text section");
      if (!labels.try_emplace(label, pending.size()).second)
        return error(label, "label '" + label + "' is defined twice");
      line = line.drop_front(colon + 1).ltrim();
    }
    if (line.empty())
      continue;
    StringRef head = line.take_until([](char c) { return isSpace(c); });
    StringRef rest = line.drop_front(head.size()).trim();
    SmallVector<StringRef> operands;
    if (!rest.empty()) {
      rest.split(operands, ',');
      for (StringRef &operand : operands) {
        operand = operand.trim();
        if (operand.empty())
          return error(rest, "an empty operand");
      }
    }
    if (head == ".text") {
      if (section != Section::None || !operands.empty())
        return error(head, "'.text' must come first, once, alone");
      section = Section::Text;
      continue;
    }
    if (head == ".data") {
      if (section != Section::Text || sawData || operands.size() != 1)
        return error(head, "'.data ADDRESS' must follow the .text section, "
                           "once");
      if (operands[0].getAsInteger(0, program.dataAddress))
        return error(operands[0], "expected the data section's DRAM element "
                                  "address");
      section = Section::Data;
      sawData = true;
      continue;
    }
    if (head == ".half") {
      if (section != Section::Data)
        return error(head, "'.half' outside the .data section");
      for (StringRef operand : operands) {
        uint64_t value;
        if (operand.getAsInteger(0, value) || value > 0xffff)
          return error(operand, "expected a 16-bit value");
        program.data.push_back(value & 0xff);
        program.data.push_back(value >> 8);
      }
      continue;
    }
    if (section != Section::Text)
      return error(head, "an instruction outside the .text section");
    const InstructionInfo *info = lookupMnemonic(head);
    if (!info)
      return error(head, "unknown instruction '" + head + "'");
    if (operands.size() != info->fields.size())
      return error(head, formatv("'{0}' takes {1} operands, got {2}", head,
                                 info->fields.size(), operands.size()));
    pending.push_back({info, head, std::move(operands)});
  }
  if (section == Section::None)
    return error(buffer, "expected '.text'");

  for (auto [index, inst] : llvm::enumerate(pending)) {
    Instruction decoded;
    decoded.info = inst.info;
    for (auto [field, operand] : llvm::zip(inst.info->fields, inst.operands)) {
      int64_t value;
      if (field.kind == FieldKind::Reg) {
        StringRef number = operand;
        if (!number.consume_front("r") || number.getAsInteger(10, value) ||
            value < 0 || value >= kNumRegisters)
          return error(operand,
                       formatv("operand {0} of '{1}' must be a "
                               "register r0..r{2}",
                               field.name, inst.mnemonic, kNumRegisters - 1));
      } else if (field.kind == FieldKind::Target && isIdentifier(operand)) {
        auto it = labels.find(operand);
        if (it == labels.end())
          return error(operand, "undefined label '" + operand + "'");
        value = it->second - static_cast<int64_t>(index);
      } else if (operand.getAsInteger(0, value)) {
        return error(operand, formatv("operand {0} of '{1}' must be {2}",
                                      field.name, inst.mnemonic,
                                      field.kind == FieldKind::Target
                                          ? "a label or an offset"
                                          : "an integer"));
      }
      decoded.operands.push_back(value);
    }
    Expected<uint32_t> word = encode(decoded);
    if (!word)
      return error(inst.mnemonic, toString(word.takeError()));
    program.text.push_back(*word);
  }
  return success();
}

Error dlc::snowflake::disassemble(const Program &program, raw_ostream &os,
                                  ArrayRef<std::string> comments,
                                  bool withData) {
  std::vector<Instruction> decoded;
  std::set<int64_t> targets;
  for (auto [pc, word] : llvm::enumerate(program.text)) {
    Expected<Instruction> inst = decode(word);
    if (!inst)
      return createStringError(
          formatv("instruction {0}: {1}", pc, toString(inst.takeError()))
              .str());
    for (auto [field, value] : llvm::zip(inst->info->fields, inst->operands))
      if (field.kind == FieldKind::Target &&
          static_cast<int64_t>(pc) + value >= 0 &&
          static_cast<int64_t>(pc) + value <=
              static_cast<int64_t>(program.text.size()))
        targets.insert(pc + value);
    decoded.push_back(std::move(*inst));
  }
  os << formatv("# Snowflake program, ISA version {0}: {1} instructions, {2} "
                "bytes of data\n.text\n",
                kISAVersion, program.text.size(), program.data.size());
  for (auto [pc, inst] : llvm::enumerate(decoded)) {
    if (targets.count(pc))
      os << "L" << pc << ":\n";
    std::string line;
    raw_string_ostream text(line);
    text << "    " << inst.info->mnemonic;
    for (auto [i, fieldAndValue] :
         llvm::enumerate(llvm::zip(inst.info->fields, inst.operands))) {
      auto [field, value] = fieldAndValue;
      text << (i ? ", " : " ");
      int64_t target = static_cast<int64_t>(pc) + value;
      if (field.kind == FieldKind::Reg)
        text << "r" << value;
      else if (field.kind == FieldKind::Mask)
        text << formatv("{0:x}", value);
      else if (field.kind == FieldKind::Target && targets.count(target))
        text << "L" << target;
      else
        text << value;
    }
    os << left_justify(line, 40)
       << formatv(" # {0:x-4}: {1:x-8}", pc, program.text[pc]);
    if (pc < comments.size() && !comments[pc].empty())
      os << "  " << comments[pc];
    os << "\n";
  }
  if (targets.count(program.text.size()))
    os << "L" << program.text.size() << ":\n";
  if (!withData) {
    os << "# .data " << program.dataAddress << ": " << program.data.size() / 2
       << " 16-bit elements (in the binary image; `dlc-translate "
          "--snowflake-disassemble` prints them)\n";
    return Error::success();
  }
  os << ".data " << program.dataAddress << "\n";
  constexpr size_t kPerLine = 8;
  for (size_t i = 0; i < program.data.size(); i += 2 * kPerLine) {
    os << "    .half ";
    for (size_t j = i; j < std::min(program.data.size(), i + 2 * kPerLine);
         j += 2)
      os << (j == i ? "" : ", ")
         << formatv("{0:x4}", program.data[j] | (program.data[j + 1] << 8));
    os << "\n";
  }
  return Error::success();
}
