//===- InferentiaEmission.cpp - inferentia.program to a trace -------------===//
//
// Every instruction op is one trace instruction (toInstruction, shared with
// the dialect's verifiers); the header is the program's attributes and its
// DRAM tensors; the weights file is DRAM from the lowest weights address to
// the end of the highest, as the machine holds it. The listing is for
// people and may change; the trace is the format (Trace.h).
//
//===----------------------------------------------------------------------===//

#include "dlc/Target/Inferentia/InferentiaEmission.h"

#include "dlc/Dialect/DLC/IR/DLCOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstring>

using namespace mlir;
using namespace dlc;
using namespace dlc::inferentia;

//===----------------------------------------------------------------------===//
// Elements
//===----------------------------------------------------------------------===//

namespace {

uint32_t floatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

float bitsFloat(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

/// The upper half of an f32, rounded to nearest even; NaNs stay NaNs (the
/// rounding could carry a NaN's payload into an infinity).
uint16_t toBF16(uint32_t bits) {
  if ((bits & 0x7fffffffu) > 0x7f800000u)
    return static_cast<uint16_t>((bits >> 16) | 0x40);
  return static_cast<uint16_t>((bits + 0x7fffu + ((bits >> 16) & 1)) >> 16);
}

} // namespace

void dlc::inferentia::appendElement(float value, DataType type,
                                    std::vector<uint8_t> &out) {
  uint32_t bits = floatBits(value);
  if (type == DataType::BF16) {
    uint16_t half = toBF16(bits);
    out.push_back(half & 0xff);
    out.push_back(half >> 8);
    return;
  }
  for (int shift = 0; shift < 32; shift += 8)
    out.push_back((bits >> shift) & 0xff);
}

namespace {

std::optional<DataType> getDataType(Type type) {
  if (type.isF32())
    return DataType::F32;
  if (type.isBF16())
    return DataType::BF16;
  return std::nullopt;
}

/// Appends the elements of `value` to `out` as elements of `type`.
LogicalResult appendValue(Operation *op, ElementsAttr value, DataType type,
                          std::vector<uint8_t> &out) {
  std::optional<DataType> from = getDataType(value.getElementType());
  if (!from)
    return op->emitOpError("value has ")
           << value.getElementType() << " elements; weights are f32 or bf16";
  int64_t count = value.getNumElements();
  int64_t fromBytes = *from == DataType::F32 ? 4 : 2;
  // Dense data and resources are read as bytes: a model's weights are
  // millions of elements.
  ArrayRef<char> raw;
  bool splat = false;
  if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
    raw = dense.getRawData();
    splat = dense.isSplat();
  } else if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return op->emitOpError("value is a resource without data");
    raw = blob->getData();
  } else {
    auto values = value.tryGetValues<APFloat>();
    if (!values)
      return op->emitOpError("value cannot be read as floats");
    for (APFloat element : *values) {
      bool lost;
      element.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven,
                      &lost);
      appendElement(element.convertToFloat(), type, out);
    }
    return success();
  }
  int64_t stored = splat ? 1 : count;
  if (static_cast<int64_t>(raw.size()) != stored * fromBytes)
    return op->emitOpError("value holds ")
           << raw.size() << " bytes for " << stored << " elements of "
           << value.getElementType();
  auto *bytes = reinterpret_cast<const uint8_t *>(raw.data());
  out.reserve(out.size() + count * (type == DataType::F32 ? 4 : 2));
  for (int64_t i = 0; i < count; ++i) {
    const uint8_t *element = bytes + (splat ? 0 : i * fromBytes);
    // MLIR keeps element data in the host's order; the file is
    // little-endian.
    if (*from == type && llvm::sys::IsLittleEndianHost) {
      out.insert(out.end(), element, element + fromBytes);
      continue;
    }
    float f =
        *from == DataType::F32
            ? bitsFloat(llvm::support::endian::read32(element,
                                                      llvm::endianness::native))
            : bitsFloat(static_cast<uint32_t>(llvm::support::endian::read16(
                            element, llvm::endianness::native))
                        << 16);
    appendElement(f, type, out);
  }
  return success();
}

DataType getDataType(BufferType type) {
  return type.getElementType().isF32() ? DataType::F32 : DataType::BF16;
}

TraceTensor toTraceTensor(DramTensorOp tensor) {
  BufferType type = tensor.getBuffer().getType();
  TraceTensor out;
  out.name = tensor.getName().str();
  out.address = tensor.getAddressAttr().getInt();
  if (MappingAttr mapping = type.getMapping())
    out.shape.assign(mapping.getShape().begin(), mapping.getShape().end());
  else
    out.shape = {type.getFreeElements()};
  out.type = getDataType(type);
  return out;
}

bool isInstruction(Operation *op) {
  // (DLCOps.h has a TransposeOp too.)
  return isa<DmaCopyOp, MatmulOp, inferentia::TransposeOp, ActivationOp,
             TensorTensorOp, TensorScalarOp, TensorReduceOp, TensorCopyOp,
             MemsetOp, SelectOp>(op);
}

/// "conv1 (Conv)" from the op's location, else its layer's name and op.
std::string getNodeComment(Operation *op, const TraceHeader &header,
                           int64_t layer) {
  std::string name = getNodeName(op->getLoc());
  std::string type = getNodeOpType(op->getLoc());
  if (name.empty() && layer >= 0 &&
      layer < static_cast<int64_t>(header.layers.size())) {
    name = header.layers[layer].name;
    type = header.layers[layer].op;
  }
  return name.empty() || type.empty() ? name : name + " (" + type + ")";
}

} // namespace

//===----------------------------------------------------------------------===//
// The trace
//===----------------------------------------------------------------------===//

FailureOr<EmittedTrace> dlc::inferentia::emitTrace(ProgramOp program) {
  EmittedTrace out;
  TraceHeader &header = out.trace.header;
  header.machine = getMachine(program);
  if (llvm::Error error = header.machine.verify())
    return program.emitOpError("runs on a machine that cannot exist: ")
           << llvm::toString(std::move(error));
  for (Attribute attr : program.getLayers()) {
    auto layer = cast<LayerAttr>(attr);
    TraceLayer &traced = header.layers.emplace_back();
    traced.name = layer.getName().str();
    traced.op = layer.getOp().str();
    for (Attribute fused : layer.getFused())
      if (auto name = dyn_cast<StringAttr>(fused))
        traced.fused.push_back(name.str());
    traced.macs = layer.getMacs();
  }
  header.layoutMode = program.getLayoutMode().str();
  header.loadStorePairsRemoved =
      program.getLoadStorePairsRemovedAttr().getInt();
  header.loadStorePairsTotal = program.getLoadStorePairsTotalAttr().getInt();
  header.intermediateBytesRemoved =
      program.getIntermediateBytesRemovedAttr().getInt();
  header.intermediateBytesTotal =
      program.getIntermediateBytesTotalAttr().getInt();
  header.weightsFile = kWeightsFileName.str();

  struct Weights {
    int64_t address;
    std::vector<uint8_t> bytes;
    DramTensorOp op;
  };
  std::vector<Weights> weights;
  llvm::DenseMap<Operation *, int64_t> indexOf;
  std::vector<Operation *> instructionOps;
  for (Operation &op : program.getBody().front()) {
    if (auto tensor = dyn_cast<DramTensorOp>(op)) {
      BufferType type = tensor.getBuffer().getType();
      int64_t address = tensor.getAddressAttr().getInt();
      header.dramBytes =
          std::max(header.dramBytes, address + type.getPartitionBytes());
      StringRef role = tensor.getRole();
      if (role == "input")
        header.inputs.push_back(toTraceTensor(tensor));
      else if (role == "output")
        header.outputs.push_back(toTraceTensor(tensor));
      else if (role == "weights") {
        if (!tensor.getValue())
          return tensor.emitOpError("holds weights without a value");
        Weights &w = weights.emplace_back();
        w.address = address;
        w.op = tensor;
        if (failed(appendValue(tensor, *tensor.getValue(), getDataType(type),
                               w.bytes)))
          return failure();
      }
      continue;
    }
    if (isa<AllocOp>(op))
      continue;
    if (!isInstruction(&op))
      return op.emitOpError("is not part of an inferentia trace");
    int64_t index = static_cast<int64_t>(out.trace.instructions.size());
    bool unknownDep = false;
    FailureOr<Instruction> inst =
        toInstruction(&op, [&](Operation *producer) -> int64_t {
          auto it = producer ? indexOf.find(producer) : indexOf.end();
          if (it == indexOf.end()) {
            unknownDep = true;
            return -1;
          }
          return it->second;
        });
    if (failed(inst))
      return failure();
    if (unknownDep)
      return op.emitOpError("waits for a token that no earlier instruction "
                            "of the program returns");
    out.nodes.push_back(getNodeComment(&op, header, inst->layer));
    out.trace.instructions.push_back(std::move(*inst));
    indexOf[&op] = index;
    instructionOps.push_back(&op);
  }
  // What the trace's reader will check, with the header complete (DRAM
  // accesses stay within the program's tensors): errors here name the op.
  for (auto [index, op] : llvm::enumerate(instructionOps)) {
    std::string why = checkTraceInstruction(out.trace, index);
    if (!why.empty())
      return op->emitOpError(why);
  }

  // The weights file: one image of DRAM, so the loader copies it at once.
  llvm::sort(weights, [](const Weights &a, const Weights &b) {
    return a.address < b.address;
  });
  for (size_t i = 1; i < weights.size(); ++i) {
    Weights &previous = weights[i - 1];
    int64_t previousEnd =
        previous.address + static_cast<int64_t>(previous.bytes.size());
    if (weights[i].address < previousEnd)
      return weights[i].op.emitOpError("overlaps the weights '")
             << previous.op.getName() << "' (bytes [" << previous.address
             << ", " << previousEnd << "))";
  }
  if (!weights.empty()) {
    header.weightsAddress = weights.front().address;
    int64_t end = header.weightsAddress;
    for (const Weights &w : weights)
      end = std::max(end, w.address + static_cast<int64_t>(w.bytes.size()));
    header.weightsBytes = end - header.weightsAddress;
    out.weights.assign(header.weightsBytes, 0);
    for (const Weights &w : weights)
      std::copy(w.bytes.begin(), w.bytes.end(),
                out.weights.begin() + (w.address - header.weightsAddress));
  }
  return out;
}

FailureOr<ProgramOp> dlc::inferentia::getProgram(ModuleOp module) {
  auto programs = module.getOps<ProgramOp>();
  if (std::distance(programs.begin(), programs.end()) != 1)
    return module.emitError("expected exactly one inferentia.program");
  return *programs.begin();
}

//===----------------------------------------------------------------------===//
// The listing
//===----------------------------------------------------------------------===//

namespace {

std::string formatShape(ArrayRef<int64_t> shape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(shape, os, "x");
  return text;
}

/// `sbuf[p 0:8 @1024 (8,56):(58,1) f32]`: the memory, the partitions (and
/// for DRAM the elements between them), the byte address, the free
/// dimensions as sizes:strides in elements, and the element type.
void printPattern(const AccessPattern &ap, raw_ostream &os) {
  os << getName(ap.memory) << "[p " << ap.startPartition << ":"
     << ap.partitions;
  if (ap.memory == Memory::Dram)
    os << " step " << ap.partitionStride;
  os << " @" << ap.address << " (";
  llvm::interleave(
      ap.dims, os, [&](const auto &dim) { os << dim.second; }, ",");
  os << "):(";
  llvm::interleave(ap.dims, os, [&](const auto &dim) { os << dim.first; }, ",");
  os << ") " << getName(ap.type) << "]";
}

void printTensors(StringRef what, ArrayRef<TraceTensor> tensors,
                  raw_ostream &os) {
  os << "# " << what << ":";
  if (tensors.empty())
    os << " none";
  for (const TraceTensor &tensor : tensors)
    os << " " << tensor.name << " @" << tensor.address << " "
       << getName(tensor.type) << "[" << formatShape(tensor.shape) << "]";
  os << "\n";
}

} // namespace

void dlc::inferentia::writeListing(const Trace &trace,
                                   ArrayRef<std::string> nodes,
                                   raw_ostream &os) {
  const TraceHeader &header = trace.header;
  os << "# dlc inferentia trace: " << trace.instructions.size()
     << " instructions, " << header.layers.size() << " layers, layout "
     << header.layoutMode << "\n";
  printTensors("inputs", header.inputs, os);
  printTensors("outputs", header.outputs, os);
  os << "# weights: " << header.weightsBytes << " bytes @"
     << header.weightsAddress << " (" << header.weightsFile
     << "); DRAM used: " << header.dramBytes << " bytes\n";
  os << "# data-movement elimination: " << header.loadStorePairsRemoved
     << " of " << header.loadStorePairsTotal << " load-store pairs, "
     << header.intermediateBytesRemoved << " of "
     << header.intermediateBytesTotal << " intermediate bytes removed\n";
  os << "# index engine opcode dst <- srcs fields deps # ONNX node\n";
  for (auto [index, inst] : llvm::enumerate(trace.instructions)) {
    std::string engine = getName(inst.engine).str();
    if (inst.opcode == Opcode::DmaCopy)
      engine += ".q" + std::to_string(inst.queue);
    os << llvm::format("%6zu  %-9s %-14s ", index, engine.c_str(),
                       getName(inst.opcode).str().c_str());
    printPattern(inst.dst, os);
    if (!inst.srcs.empty()) {
      os << " <- ";
      llvm::interleave(
          inst.srcs, os, [&](const AccessPattern &ap) { printPattern(ap, os); },
          ", ");
    }
    size_t numSrcs = inst.srcs.size();
    switch (inst.opcode) {
    case Opcode::DmaCopy:
    case Opcode::Transpose:
    case Opcode::TensorCopy:
      if (inst.cause != Cause::None || inst.opcode == Opcode::DmaCopy)
        os << " cause=" << getName(inst.cause);
      break;
    case Opcode::Matmul:
      if (inst.accumulate)
        os << " accumulate";
      break;
    case Opcode::Activation:
      os << " function=" << getName(inst.function);
      if (inst.scale != 1)
        os << " scale=" << llvm::format("%g", inst.scale);
      if (numSrcs < 2)
        os << " bias=" << llvm::format("%g", inst.imm0);
      break;
    case Opcode::TensorTensor:
      os << " alu0=" << getName(inst.alu0);
      break;
    case Opcode::TensorScalar:
      os << " alu0=" << getName(inst.alu0);
      if (numSrcs < 2)
        os << " imm0=" << llvm::format("%g", inst.imm0);
      os << " alu1=" << getName(inst.alu1);
      if (inst.alu1 != AluOp::Bypass && numSrcs < 3)
        os << " imm1=" << llvm::format("%g", inst.imm1);
      break;
    case Opcode::TensorReduce:
      os << " alu0=" << getName(inst.alu0) << " dims=" << inst.reduceDims;
      break;
    case Opcode::Memset:
      os << " value=" << llvm::format("%g", inst.imm0);
      break;
    case Opcode::Select:
      break;
    }
    if (!inst.deps.empty()) {
      os << " deps=";
      llvm::interleave(inst.deps, os, ",");
    }
    if (index < nodes.size() && !nodes[index].empty())
      os << "  # " << nodes[index];
    os << "\n";
  }
}

//===----------------------------------------------------------------------===//
// Translations
//===----------------------------------------------------------------------===//

/// The emitted trace of a translation's input module.
static FailureOr<EmittedTrace> emitModule(Operation *op) {
  auto module = dyn_cast<ModuleOp>(op);
  if (!module)
    return op->emitError("expected a module");
  FailureOr<ProgramOp> program = getProgram(module);
  if (failed(program))
    return failure();
  return emitTrace(*program);
}

void dlc::inferentia::registerInferentiaEmissionTranslations() {
  auto dialects = [](DialectRegistry &registry) {
    registry.insert<InferentiaDialect, DLCDialect>();
  };
  TranslateFromMLIRRegistration trace(
      "inferentia-to-trace",
      "An inferentia.program to its trace (trace.jsonl: JSON lines, the "
      "header first)",
      [](Operation *op, raw_ostream &os) -> LogicalResult {
        FailureOr<EmittedTrace> emitted = emitModule(op);
        if (failed(emitted))
          return failure();
        writeTrace(emitted->trace, os);
        return success();
      },
      dialects);
  TranslateFromMLIRRegistration listing(
      "inferentia-to-listing",
      "An inferentia.program to its listing (one line per instruction with "
      "its ONNX node)",
      [](Operation *op, raw_ostream &os) -> LogicalResult {
        FailureOr<EmittedTrace> emitted = emitModule(op);
        if (failed(emitted))
          return failure();
        writeListing(emitted->trace, emitted->nodes, os);
        return success();
      },
      dialects);
  TranslateFromMLIRRegistration weights(
      "inferentia-to-weights",
      "An inferentia.program to its weights file (weights.bin: DRAM from the "
      "lowest weights address to the end of the highest, little-endian)",
      [](Operation *op, raw_ostream &os) -> LogicalResult {
        FailureOr<EmittedTrace> emitted = emitModule(op);
        if (failed(emitted))
          return failure();
        os.write(reinterpret_cast<const char *>(emitted->weights.data()),
                 emitted->weights.size());
        return success();
      },
      dialects);
}
