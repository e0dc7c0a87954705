//===- DLCAttrs.cpp - dlc attributes --------------------------------------===//

#include "dlc/Dialect/DLC/IR/DLCOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace dlc;

LogicalResult HardwareAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, int64_t localMemoryBytes,
    int64_t localMemorySpace, int64_t banks, bool doubleBuffering,
    int64_t dmaBlockOverheadBytes, int64_t processingUnits, bool broadcastReads,
    bool stridedReadCopies, DictionaryAttr target) {
  if (localMemoryBytes < 0)
    return emitError() << "local_memory_bytes must not be negative, got "
                       << localMemoryBytes;
  if (banks < 1)
    return emitError() << "banks must be at least 1, got " << banks;
  if (localMemoryBytes % banks != 0)
    return emitError() << "local_memory_bytes (" << localMemoryBytes
                       << ") must be a multiple of banks (" << banks << ")";
  // Space 0 is global memory: local buffers must be told apart from it.
  if (localMemorySpace < 1)
    return emitError() << "local_memory_space must be at least 1, got "
                       << localMemorySpace;
  if (dmaBlockOverheadBytes < 0)
    return emitError() << "dma_block_overhead_bytes must not be negative, got "
                       << dmaBlockOverheadBytes;
  if (processingUnits < 1)
    return emitError() << "processing_units must be at least 1, got "
                       << processingUnits;
  if (target) {
    for (NamedAttribute entry : target) {
      Attribute value = entry.getValue();
      auto isNumber = [](Attribute a) {
        return isa<IntegerAttr, FloatAttr>(a);
      };
      auto array = dyn_cast<ArrayAttr>(value);
      if (!isNumber(value) && !isa<BoolAttr>(value) &&
          !(array && llvm::all_of(array, isNumber)))
        return emitError() << "target parameter '" << entry.getName().getValue()
                           << "' must be a number, a boolean or an array of "
                              "numbers, got "
                           << value;
    }
  }
  return success();
}

int64_t HardwareAttr::getTargetInt(StringRef name, int64_t fallback) const {
  DictionaryAttr target = getTarget();
  if (!target)
    return fallback;
  if (auto value = target.getAs<IntegerAttr>(name))
    return value.getInt();
  if (auto value = target.getAs<FloatAttr>(name))
    return static_cast<int64_t>(value.getValueAsDouble());
  return fallback;
}

double HardwareAttr::getTargetFloat(StringRef name, double fallback) const {
  DictionaryAttr target = getTarget();
  if (!target)
    return fallback;
  if (auto value = target.getAs<FloatAttr>(name))
    return value.getValueAsDouble();
  if (auto value = target.getAs<IntegerAttr>(name))
    return static_cast<double>(value.getInt());
  return fallback;
}

Attribute HardwareAttr::getTargetValue(MLIRContext *context, int64_t value) {
  return IntegerAttr::get(IntegerType::get(context, 64), value);
}

Attribute HardwareAttr::getTargetValue(MLIRContext *context, double value) {
  return FloatAttr::get(Float64Type::get(context), value);
}

SmallVector<double> HardwareAttr::getTargetArray(StringRef name) const {
  SmallVector<double> values;
  DictionaryAttr target = getTarget();
  auto array = target ? target.getAs<ArrayAttr>(name) : nullptr;
  if (!array)
    return values;
  for (Attribute element : array) {
    if (auto f = dyn_cast<FloatAttr>(element))
      values.push_back(f.getValueAsDouble());
    else if (auto i = dyn_cast<IntegerAttr>(element))
      values.push_back(static_cast<double>(i.getInt()));
  }
  return values;
}

/// `text` as a number with an optional K or M suffix (KiB, MiB) for
/// integers; false if it is none.
static bool parseScaledInteger(StringRef text, int64_t &number) {
  int64_t scale = 1;
  if (text.consume_back_insensitive("k"))
    scale = 1024;
  else if (text.consume_back_insensitive("m"))
    scale = 1024 * 1024;
  if (text.getAsInteger(10, number) || number > INT32_MAX || number < INT32_MIN)
    return false;
  number *= scale;
  return true;
}

/// `text` parsed like `like` (an integer, float, boolean or array of
/// numbers, the type of the default), or null.
static Attribute parseTargetValue(Attribute like, StringRef text) {
  MLIRContext *context = like.getContext();
  auto parseNumber = [&](Attribute element, StringRef word) -> Attribute {
    word = word.trim();
    if (auto integer = dyn_cast<IntegerAttr>(element)) {
      int64_t number;
      if (!parseScaledInteger(word, number))
        return nullptr;
      return IntegerAttr::get(integer.getType(), number);
    }
    if (auto real = dyn_cast<FloatAttr>(element)) {
      double number;
      if (word.getAsDouble(number))
        return nullptr;
      return FloatAttr::get(real.getType(), number);
    }
    return nullptr;
  };
  if (isa<BoolAttr>(like)) {
    if (text == "true" || text == "1")
      return BoolAttr::get(context, true);
    if (text == "false" || text == "0")
      return BoolAttr::get(context, false);
    return nullptr;
  }
  if (auto array = dyn_cast<ArrayAttr>(like)) {
    if (array.empty())
      return nullptr;
    SmallVector<StringRef> words;
    text.split(words, ':');
    SmallVector<Attribute> elements;
    for (StringRef word : words) {
      Attribute element = parseNumber(array[0], word);
      if (!element)
        return nullptr;
      elements.push_back(element);
    }
    return ArrayAttr::get(context, elements);
  }
  return parseNumber(like, text);
}

HardwareAttr HardwareAttr::lookup(Operation *op) {
  auto module = dyn_cast<ModuleOp>(op);
  if (!module)
    module = op->getParentOfType<ModuleOp>();
  if (!module)
    return {};
  return module->getAttrOfType<HardwareAttr>(kAttrName);
}

FailureOr<HardwareAttr>
HardwareAttr::applyOverrides(HardwareAttr base, StringRef overrides,
                             function_ref<InFlightDiagnostic()> emitError) {
  int64_t localMemoryBytes = base.getLocalMemoryBytes();
  int64_t localMemorySpace = base.getLocalMemorySpace();
  int64_t banks = base.getBanks();
  bool doubleBuffering = base.getDoubleBuffering();
  int64_t dmaBlockOverheadBytes = base.getDmaBlockOverheadBytes();
  int64_t processingUnits = base.getProcessingUnits();
  bool broadcastReads = base.getBroadcastReads();
  bool stridedReadCopies = base.getStridedReadCopies();
  NamedAttrList target;
  if (DictionaryAttr baseTarget = base.getTarget())
    target.assign(baseTarget.getValue());

  SmallVector<StringRef> entries;
  overrides.split(entries, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef entry : entries) {
    auto [name, value] = entry.trim().split('=');
    name = name.trim();
    value = value.trim();
    bool *flagField = llvm::StringSwitch<bool *>(name)
                          .Case("double_buffering", &doubleBuffering)
                          .Case("broadcast_reads", &broadcastReads)
                          .Case("strided_read_copies", &stridedReadCopies)
                          .Default(nullptr);
    if (flagField) {
      std::optional<bool> flag;
      if (value == "true" || value == "1")
        flag = true;
      else if (value == "false" || value == "0")
        flag = false;
      if (!flag)
        return emitError() << "hardware override '" << entry
                           << "': expected true or false";
      *flagField = *flag;
      continue;
    }
    int64_t *field =
        llvm::StringSwitch<int64_t *>(name)
            .Case("local_memory_bytes", &localMemoryBytes)
            .Case("local_memory_space", &localMemorySpace)
            .Case("banks", &banks)
            .Case("dma_block_overhead_bytes", &dmaBlockOverheadBytes)
            .Case("processing_units", &processingUnits)
            .Default(nullptr);
    if (!field) {
      // A parameter of the target: parsed like its default.
      Attribute like = target.get(name);
      if (!like) {
        InFlightDiagnostic diag = emitError();
        diag << "hardware override '" << entry << "': unknown parameter '"
             << name
             << "' (known: local_memory_bytes, local_memory_space, banks, "
                "double_buffering, dma_block_overhead_bytes, processing_units, "
                "broadcast_reads, strided_read_copies";
        for (NamedAttribute known : target)
          diag << ", " << known.getName().getValue();
        diag << ")";
        return diag;
      }
      Attribute parsed = parseTargetValue(like, value);
      if (!parsed)
        return emitError() << "hardware override '" << entry
                           << "': expected a value like " << like;
      target.set(name, parsed);
      continue;
    }
    // Sizes may be written with a K or M suffix (KiB, MiB).
    int64_t number;
    if (!parseScaledInteger(value, number))
      return emitError() << "hardware override '" << entry
                         << "': expected an integer";
    *field = number;
  }
  DictionaryAttr targetAttr = target.empty()
                                  ? DictionaryAttr()
                                  : target.getDictionary(base.getContext());
  if (failed(verify(emitError, localMemoryBytes, localMemorySpace, banks,
                    doubleBuffering, dmaBlockOverheadBytes, processingUnits,
                    broadcastReads, stridedReadCopies, targetAttr)))
    return failure();
  return HardwareAttr::get(base.getContext(), localMemoryBytes,
                           localMemorySpace, banks, doubleBuffering,
                           dmaBlockOverheadBytes, processingUnits,
                           broadcastReads, stridedReadCopies, targetAttr);
}

//===----------------------------------------------------------------------===//
// The discardable `dlc.*` attributes
//===----------------------------------------------------------------------===//

namespace {

/// Where a discardable attribute may appear.
enum AttrPlace : unsigned {
  OnModule = 1,
  OnOperation = 2, // any operation but a module
  OnArgument = 4,
  OnResult = 8,
};

/// What one `dlc.*` attribute must be: its name (from the dialect's
/// discardable attributes), the places it may appear and its kind.
struct AttrRule {
  StringRef name;
  unsigned places;
  bool (*hasKind)(Attribute);
  StringRef kind;
};

template <typename T> bool isKind(Attribute attr) { return isa<T>(attr); }

const AttrRule *findRule(StringRef name) {
  using D = DLCDialect;
  static const AttrRule rules[] = {
      {D::HardwareAttrHelper::getNameStr(), OnModule, isKind<HardwareAttr>,
       "a #dlc.hardware description"},
      {D::HardwareTextAttrHelper::getNameStr(), OnModule, isKind<StringAttr>,
       "a string"},
      {D::EntryAttrHelper::getNameStr(), OnModule, isKind<DictionaryAttr>,
       "a dictionary"},
      {D::NameAttrHelper::getNameStr(), OnArgument | OnResult,
       isKind<StringAttr>, "a string"},
      {D::NestAttrHelper::getNameStr(), OnOperation, isKind<DictionaryAttr>,
       "a dictionary"},
      {D::TileLoopAttrHelper::getNameStr(), OnOperation, isKind<UnitAttr>,
       "a unit attribute"},
      {D::ParallelAttrHelper::getNameStr(), OnOperation, isKind<UnitAttr>,
       "a unit attribute"},
      {D::TilingAttrHelper::getNameStr(), OnOperation, isKind<DictionaryAttr>,
       "a dictionary"},
      {D::DistributedAttrHelper::getNameStr(), OnOperation,
       isKind<DictionaryAttr>, "a dictionary"},
      {D::TransfersAttrHelper::getNameStr(), OnOperation, isKind<ArrayAttr>,
       "an array"},
      {D::BankDimAttrHelper::getNameStr(), OnOperation | OnArgument,
       isKind<IntegerAttr>, "an integer"},
      {D::RelayoutAttrHelper::getNameStr(), OnOperation, isKind<UnitAttr>,
       "a unit attribute"},
      {D::BankLayoutAttrHelper::getNameStr(), OnOperation,
       isKind<DictionaryAttr>, "a dictionary"},
      {D::EliminatedCopiesAttrHelper::getNameStr(), OnOperation,
       isKind<ArrayAttr>, "an array"},
      {D::FallbackAttrHelper::getNameStr(), OnOperation, isKind<StringAttr>,
       "a string"},
      {D::SegmentAttrHelper::getNameStr(), OnOperation, isKind<StringAttr>,
       "a string"},
  };
  for (const AttrRule &rule : rules)
    if (rule.name == name)
      return &rule;
  return nullptr;
}

/// Checks `attribute` against its rule for `place`; `emitError` reports on
/// the operation that holds it.
LogicalResult verifyDiscardable(NamedAttribute attribute, AttrPlace place,
                                function_ref<InFlightDiagnostic()> emitError) {
  StringRef name = attribute.getName().getValue();
  const AttrRule *rule = findRule(name);
  if (!rule)
    return emitError() << "unknown attribute '" << name
                       << "' (docs/Architecture.md lists the dlc attributes)";
  if (!(rule->places & place)) {
    static constexpr StringLiteral placeNames[] = {
        "on a module", "on an operation", "on an argument", "on a result"};
    return emitError() << "'" << name << "' does not belong "
                       << placeNames[llvm::countr_zero(unsigned(place))];
  }
  if (!rule->hasKind(attribute.getValue()))
    return emitError() << "'" << name << "' must be " << rule->kind;
  return success();
}

} // namespace

LogicalResult DLCDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attribute) {
  return verifyDiscardable(attribute,
                           isa<ModuleOp>(op) ? OnModule : OnOperation,
                           [&] { return op->emitOpError(); });
}

LogicalResult DLCDialect::verifyRegionArgAttribute(Operation *op, unsigned,
                                                   unsigned argIndex,
                                                   NamedAttribute attribute) {
  return verifyDiscardable(attribute, OnArgument, [&] {
    return op->emitOpError() << "argument " << argIndex << ": ";
  });
}

LogicalResult DLCDialect::verifyRegionResultAttribute(
    Operation *op, unsigned, unsigned resultIndex, NamedAttribute attribute) {
  return verifyDiscardable(attribute, OnResult, [&] {
    return op->emitOpError() << "result " << resultIndex << ": ";
  });
}
