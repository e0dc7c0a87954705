//===- ArtifactManifest.cpp - what a `dlc compile` directory holds --------===//

#include "dlc/Support/ArtifactManifest.h"
#include "dlc/Support/WriteFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace dlc;

static std::string getManifestPath(llvm::StringRef dir) {
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, kArtifactManifestName);
  return path.str().str();
}

bool dlc::isCompiledDirectory(llvm::StringRef dir) {
  return llvm::sys::fs::exists(getManifestPath(dir));
}

static llvm::json::Array specsToJSON(llvm::ArrayRef<TensorSpec> specs) {
  llvm::json::Array array;
  for (const TensorSpec &spec : specs) {
    llvm::json::Array shape;
    for (int64_t dim : spec.shape)
      shape.push_back(dim);
    array.push_back(
        llvm::json::Object{{"name", spec.name},
                           {"onnx_type", getONNXDataType(spec.kind)},
                           {"type", spec.getTypeString()},
                           {"shape", std::move(shape)}});
  }
  return array;
}

llvm::Error dlc::writeArtifactManifest(llvm::StringRef dir,
                                       const ArtifactManifest &manifest) {
  llvm::json::Object object{
      {"target", manifest.target},
      {"model", manifest.model},
      {"function", manifest.signature.functionName},
      {"inputs", specsToJSON(manifest.signature.inputs)},
      {"outputs", specsToJSON(manifest.signature.outputs)},
      {"hardware", manifest.hardware},
      {"target_records", llvm::json::Object(manifest.extra)}};
  return writeFile(getManifestPath(dir), [&](llvm::raw_ostream &os) {
    os << llvm::formatv("{0:2}", llvm::json::Value(std::move(object))) << "\n";
    return llvm::Error::success();
  });
}

static llvm::Expected<std::vector<TensorSpec>>
specsFromJSON(const llvm::json::Object &object, llvm::StringRef key,
              const std::string &path) {
  const llvm::json::Array *array = object.getArray(key);
  if (!array)
    return llvm::createStringError("%s: no '%s' array", path.c_str(),
                                   key.str().c_str());
  std::vector<TensorSpec> specs;
  for (const llvm::json::Value &value : *array) {
    const llvm::json::Object *entry = value.getAsObject();
    std::optional<llvm::StringRef> name =
        entry ? entry->getString("name") : std::nullopt;
    std::optional<int64_t> onnxType =
        entry ? entry->getInteger("onnx_type") : std::nullopt;
    const llvm::json::Array *shape = entry ? entry->getArray("shape") : nullptr;
    std::optional<ElementKind> kind =
        onnxType ? getElementKindFromONNX(static_cast<int32_t>(*onnxType))
                 : std::nullopt;
    if (!name || !kind || !shape)
      return llvm::createStringError(
          "%s: every entry of '%s' needs a name, a supported onnx_type and "
          "a shape",
          path.c_str(), key.str().c_str());
    TensorSpec &spec = specs.emplace_back();
    spec.name = name->str();
    spec.kind = *kind;
    for (const llvm::json::Value &dim : *shape) {
      std::optional<int64_t> size = dim.getAsInteger();
      if (!size || *size < 0)
        return llvm::createStringError("%s: '%s' has a bad shape", path.c_str(),
                                       spec.name.c_str());
      spec.shape.push_back(*size);
    }
  }
  return specs;
}

llvm::Expected<ArtifactManifest>
dlc::readArtifactManifest(llvm::StringRef dir) {
  std::string path = getManifestPath(dir);
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return llvm::createStringError("cannot read %s: %s", path.c_str(),
                                   buffer.getError().message().c_str());
  llvm::Expected<llvm::json::Value> value =
      llvm::json::parse((*buffer)->getBuffer());
  if (!value)
    return llvm::createStringError("%s: %s", path.c_str(),
                                   llvm::toString(value.takeError()).c_str());
  const llvm::json::Object *object = value->getAsObject();
  if (!object)
    return llvm::createStringError("%s is not a JSON object", path.c_str());
  ArtifactManifest manifest;
  std::optional<llvm::StringRef> target = object->getString("target");
  std::optional<llvm::StringRef> function = object->getString("function");
  std::optional<llvm::StringRef> hardware = object->getString("hardware");
  if (!target || !function || !hardware)
    return llvm::createStringError(
        "%s needs 'target', 'function' and 'hardware'", path.c_str());
  manifest.target = target->str();
  manifest.signature.functionName = function->str();
  manifest.hardware = hardware->str();
  if (std::optional<llvm::StringRef> model = object->getString("model"))
    manifest.model = model->str();
  auto inputs = specsFromJSON(*object, "inputs", path);
  if (!inputs)
    return inputs.takeError();
  auto outputs = specsFromJSON(*object, "outputs", path);
  if (!outputs)
    return outputs.takeError();
  manifest.signature.inputs = std::move(*inputs);
  manifest.signature.outputs = std::move(*outputs);
  if (const llvm::json::Object *extra = object->getObject("target_records"))
    manifest.extra = *extra;
  return manifest;
}
