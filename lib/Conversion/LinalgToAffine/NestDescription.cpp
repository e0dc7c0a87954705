//===- NestDescription.cpp - what an affine compute nest computes ---------===//

#include "dlc/Conversion/NestDescription.h"

#include "dlc/Dialect/DLC/IR/DLCDialect.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace dlc;

namespace {

constexpr std::pair<NestClass, StringLiteral> kClassNames[] = {
    {NestClass::Convolution, "convolution"},
    {NestClass::Pooling, "pooling"},
    {NestClass::Contraction, "contraction"},
    {NestClass::Elementwise, "elementwise"},
    {NestClass::Reduction, "reduction"},
    {NestClass::Fill, "fill"},
    {NestClass::Copy, "copy"},
    {NestClass::Other, "other"},
};

SmallVector<int64_t> getIntegers(Attribute attr) {
  SmallVector<int64_t> values;
  if (auto elements = dyn_cast_or_null<DenseIntElementsAttr>(attr))
    for (const APInt &value : elements)
      values.push_back(value.getSExtValue());
  return values;
}

NestClass classify(linalg::LinalgOp op, StringRef name) {
  if (isa<linalg::FillOp>(op))
    return NestClass::Fill;
  if (isa<linalg::CopyOp>(op))
    return NestClass::Copy;
  if (linalg::isaConvolutionOpInterface(op))
    return name.starts_with("pooling_") ? NestClass::Pooling
                                        : NestClass::Convolution;
  if (linalg::isaContractionOpInterface(op))
    return NestClass::Contraction;
  if (linalg::isElementwise(op))
    return NestClass::Elementwise;
  if (op.getNumReductionLoops() > 0)
    return NestClass::Reduction;
  return NestClass::Other;
}

} // namespace

StringRef dlc::stringifyNestClass(NestClass kind) {
  for (auto [value, name] : kClassNames)
    if (value == kind)
      return name;
  llvm_unreachable("every class has a name");
}

std::optional<NestClass> dlc::symbolizeNestClass(StringRef name) {
  for (auto [value, known] : kClassNames)
    if (known == name)
      return value;
  return std::nullopt;
}

NestDescription NestDescription::describe(linalg::LinalgOp op) {
  NestDescription description;
  description.op = op->getName().stripDialect().str();
  description.kind = classify(op, description.op);
  description.loops = op.getStaticLoopRanges();
  for (auto [position, iterator] : llvm::enumerate(op.getIteratorTypesArray()))
    if (linalg::isReductionIterator(iterator))
      description.reductions.push_back(position);
  description.maps = op.getIndexingMapsArray();
  if (description.kind == NestClass::Convolution ||
      description.kind == NestClass::Pooling) {
    description.strides = getIntegers(op->getAttr("strides"));
    description.dilations = getIntegers(op->getAttr("dilations"));
  }
  return description;
}

DictionaryAttr NestDescription::toAttr(MLIRContext *context) const {
  Builder b(context);
  SmallVector<NamedAttribute> fields = {
      b.getNamedAttr("op", b.getStringAttr(op)),
      b.getNamedAttr("class", b.getStringAttr(stringifyNestClass(kind))),
      b.getNamedAttr("loops", b.getDenseI64ArrayAttr(loops)),
      b.getNamedAttr("reductions", b.getDenseI64ArrayAttr(reductions)),
      b.getNamedAttr("maps", b.getAffineMapArrayAttr(maps)),
  };
  if (!strides.empty())
    fields.push_back(
        b.getNamedAttr("strides", b.getDenseI64ArrayAttr(strides)));
  if (!dilations.empty())
    fields.push_back(
        b.getNamedAttr("dilations", b.getDenseI64ArrayAttr(dilations)));
  return b.getDictionaryAttr(fields);
}

std::optional<NestDescription> NestDescription::fromAttr(DictionaryAttr attr) {
  if (!attr)
    return std::nullopt;
  auto op = attr.getAs<StringAttr>("op");
  auto kindName = attr.getAs<StringAttr>("class");
  auto loops = attr.getAs<DenseI64ArrayAttr>("loops");
  auto reductions = attr.getAs<DenseI64ArrayAttr>("reductions");
  auto maps = attr.getAs<ArrayAttr>("maps");
  std::optional<NestClass> kind =
      kindName ? symbolizeNestClass(kindName.getValue()) : std::nullopt;
  if (!op || !kind || !loops || !reductions || !maps)
    return std::nullopt;
  NestDescription description;
  description.op = op.getValue().str();
  description.kind = *kind;
  llvm::append_range(description.loops, loops.asArrayRef());
  llvm::append_range(description.reductions, reductions.asArrayRef());
  for (Attribute map : maps) {
    auto mapAttr = dyn_cast<AffineMapAttr>(map);
    if (!mapAttr || mapAttr.getValue().getNumDims() != loops.size())
      return std::nullopt;
    description.maps.push_back(mapAttr.getValue());
  }
  for (int64_t position : description.reductions)
    if (position < 0 || position >= int64_t(loops.size()))
      return std::nullopt;
  if (auto strides = attr.getAs<DenseI64ArrayAttr>("strides"))
    llvm::append_range(description.strides, strides.asArrayRef());
  if (auto dilations = attr.getAs<DenseI64ArrayAttr>("dilations"))
    llvm::append_range(description.dilations, dilations.asArrayRef());
  return description;
}

std::optional<NestDescription> dlc::getNestDescription(Operation *loop) {
  return NestDescription::fromAttr(
      DLCDialect::NestAttrHelper(loop->getContext()).getAttr(loop));
}

void dlc::setNestDescription(Operation *loop,
                             const NestDescription &description) {
  DLCDialect::NestAttrHelper(loop->getContext())
      .setAttr(loop, description.toAttr(loop->getContext()));
}
