//===- dlc-inferentia-sim.cpp - run an inferentia trace -------------------===//
//
// Runs a trace (docs/Targets/InferentiaTrace.md) on the simulator
// (lib/Simulator/Inferentia) and prints what it counted, in total and per
// layer, and whether every layer took at least its physical bound (its
// MACs at the tensor engine's peak, its DRAM bytes at the core's share of
// the bandwidth). Inputs are raw little-endian float32 files (or values on
// the command line), zero when not given:
//
//   dlc-inferentia-sim trace.jsonl --input x=x.bin --stats-json stats.json
//
//===----------------------------------------------------------------------===//

#include "dlc/Simulator/Inferentia/Simulator.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace llvm;
using namespace dlc::inferentia;

static cl::opt<std::string> tracePath(cl::Positional,
                                      cl::desc("<trace.jsonl>"));
static cl::opt<std::string>
    weightsPath("weights", cl::desc("the weights file (default: the header's "
                                    "weights_file, next to the trace)"));
static cl::list<std::string>
    inputs("input", cl::desc("NAME=FILE: the header input NAME from a raw "
                             "little-endian float32 file"));
static cl::list<std::string> inputValues(
    "input-values",
    cl::desc("NAME=V0,V1,...: the header input NAME from these values"));
static cl::list<std::string>
    outputs("output", cl::desc("NAME=FILE: write the header output NAME as "
                               "raw little-endian float32 after the run"));
static cl::opt<bool>
    printOutputs("print-outputs",
                 cl::desc("print every header output's values"));
static cl::opt<std::string> writeTracePath(
    "write-trace",
    cl::desc("write the trace as read, in the writer's form, to FILE"));
static cl::opt<std::string> printPreset(
    "print-preset",
    cl::desc("print the machine preset NAME's parameters as JSON and exit "
             "(the trace argument is then ignored)"));
// LLVM registers its own --stats-json (a flag of its statistics), so this
// one is taken off the command line before LLVM's parser sees it.
static std::string statsPath;
static cl::extrahelp statsHelp(
    "\n  --stats-json FILE: write the totals and per-layer figures as JSON\n");

/// The shortest decimal form that reads back as `v`.

static int fail(const Twine &message) {
  WithColor::error(errs(), "dlc-inferentia-sim") << message << "\n";
  return 1;
}

static const TraceTensor *findTensor(ArrayRef<TraceTensor> tensors,
                                     StringRef name) {
  for (const TraceTensor &t : tensors)
    if (t.name == name)
      return &t;
  return nullptr;
}

static std::string tensorNames(ArrayRef<TraceTensor> tensors) {
  std::string names;
  for (const TraceTensor &t : tensors)
    names += (names.empty() ? "" : ", ") + t.name;
  return names.empty() ? "none" : names;
}

/// What a layer (or the whole run) is at least: its MACs at peak and its
/// DRAM bytes at the core's bandwidth.
static double getBoundSeconds(const Machine &m, const SimulationStats &s) {
  double macSeconds =
      static_cast<double>(s.macs) /
      (static_cast<double>(m.getPeakMacsPerCycle()) * m.tensorClockHz);
  double dramSeconds = static_cast<double>(s.dramReadBytes + s.dramWriteBytes) /
                       m.getDramBytesPerSecondPerCore();
  return std::max(macSeconds, dramSeconds);
}

static json::Object statsToJSON(const Machine &m, const SimulationStats &s) {
  double seconds = s.getSeconds();
  double cycles = seconds * m.tensorClockHz;
  json::Object engines, onchip, offchip;
  for (Engine e : {Engine::Tensor, Engine::Vector, Engine::Scalar,
                   Engine::GpSimd, Engine::Dma}) {
    const EngineStats &es = s.engines[static_cast<size_t>(e)];
    engines[getName(e)] = json::Object{{"busy_seconds", es.busySeconds},
                                       {"instructions", es.instructions}};
  }
  for (Cause c : {Cause::None, Cause::Load, Cause::Store, Cause::Spill,
                  Cause::Relayout}) {
    size_t i = static_cast<size_t>(c);
    onchip[getName(c)] = json::Object{{"count", s.onchipCopies[i].count},
                                      {"bytes", s.onchipCopies[i].bytes}};
    offchip[getName(c)] = json::Object{{"count", s.offchipCopies[i].count},
                                       {"bytes", s.offchipCopies[i].bytes}};
  }
  return json::Object{
      {"macs", s.macs},
      {"cycles", cycles},
      {"clock_hz", m.tensorClockHz},
      {"seconds", seconds},
      {"mac_utilization",
       cycles > 0 ? static_cast<double>(s.macs) /
                        (cycles * static_cast<double>(m.getPeakMacsPerCycle()))
                  : 0.0},
      {"dram_read_bytes", s.dramReadBytes},
      {"dram_write_bytes", s.dramWriteBytes},
      {"start_seconds", s.startSeconds},
      {"end_seconds", s.endSeconds},
      {"instructions", s.instructions},
      {"tensor_cycles", s.tensorCycles},
      {"bound_seconds", getBoundSeconds(m, s)},
      {"engines", std::move(engines)},
      {"onchip_copies", std::move(onchip)},
      {"offchip_copies", std::move(offchip)}};
}

static void printStats(raw_ostream &os, const Machine &m,
                       const SimulationStats &s) {
  double seconds = s.getSeconds();
  double peak = static_cast<double>(m.getPeakMacsPerCycle()) * m.tensorClockHz;
  os << formatv("  {0} instructions, {1:f3} ns ({2:f3} to {3:f3} ns)\n",
                s.instructions, seconds * 1e9, s.startSeconds * 1e9,
                s.endSeconds * 1e9);
  os << formatv("  MACs {0}, tensor busy {1:f0} cycles, MAC utilization "
                "{2:f4}\n",
                s.macs, s.tensorCycles,
                seconds > 0 ? static_cast<double>(s.macs) / (seconds * peak)
                            : 0.0);
  os << formatv("  DRAM {0} bytes read, {1} written\n", s.dramReadBytes,
                s.dramWriteBytes);
  for (Engine e : {Engine::Tensor, Engine::Vector, Engine::Scalar,
                   Engine::GpSimd, Engine::Dma}) {
    const EngineStats &es = s.engines[static_cast<size_t>(e)];
    if (es.instructions)
      os << formatv("  {0}: {1} instructions, busy {2:f3} ns\n", getName(e),
                    es.instructions, es.busySeconds * 1e9);
  }
  for (auto [title, copies] :
       {std::pair<StringRef, const std::array<CopyCounts, 5> *>{
            "on-chip copies", &s.onchipCopies},
        {"off-chip copies", &s.offchipCopies}}) {
    std::string list;
    for (Cause c : {Cause::None, Cause::Load, Cause::Store, Cause::Spill,
                    Cause::Relayout}) {
      const CopyCounts &cc = (*copies)[static_cast<size_t>(c)];
      if (cc.count)
        list += formatv("{0}{1} {2} ({3} bytes)", list.empty() ? "" : ", ",
                        getName(c), cc.count, cc.bytes)
                    .str();
    }
    if (!list.empty())
      os << "  " << title << ": " << list << "\n";
  }
}

static Error loadInputs(Simulator &simulator) {
  const TraceHeader &h = simulator.getTrace().header;
  auto lookup = [&](StringRef option, StringRef spec,
                    StringRef &value) -> Expected<const TraceTensor *> {
    auto [name, rest] = spec.split('=');
    value = rest;
    if (!spec.contains('='))
      return createStringError(
          formatv("--{0} {1}: expected NAME=...", option, spec).str());
    const TraceTensor *t = findTensor(h.inputs, name);
    if (!t)
      return createStringError(
          formatv("--{0} {1}: the trace has no input '{2}' (inputs: {3})",
                  option, spec, name, tensorNames(h.inputs))
              .str());
    return t;
  };
  for (StringRef spec : inputs) {
    StringRef path;
    Expected<const TraceTensor *> t = lookup("input", spec, path);
    if (!t)
      return t.takeError();
    auto file = MemoryBuffer::getFile(path, /*IsText=*/false);
    if (!file)
      return createStringError(path + ": " + file.getError().message());
    size_t bytes = (*file)->getBufferSize();
    if (bytes % 4)
      return createStringError(
          formatv("{0}: {1} bytes are not float32 values", path, bytes).str());
    std::vector<float> values(bytes / 4);
    std::memcpy(values.data(), (*file)->getBufferStart(), bytes);
    if (Error e = simulator.writeTensor(**t, values))
      return createStringError(path + ": " + toString(std::move(e)));
  }
  for (StringRef spec : inputValues) {
    StringRef list;
    Expected<const TraceTensor *> t = lookup("input-values", spec, list);
    if (!t)
      return t.takeError();
    std::vector<float> values;
    SmallVector<StringRef> items;
    list.split(items, ',', -1, /*KeepEmpty=*/false);
    for (StringRef item : items) {
      double v;
      if (item.trim().getAsDouble(v))
        return createStringError(
            formatv("--input-values {0}: '{1}' is not a number", spec, item)
                .str());
      values.push_back(static_cast<float>(v));
    }
    if (Error e = simulator.writeTensor(**t, values))
      return createStringError("--input-values: " + toString(std::move(e)));
  }
  return Error::success();
}

static Error loadWeights(Simulator &simulator) {
  const TraceHeader &h = simulator.getTrace().header;
  std::string path = weightsPath;
  if (path.empty()) {
    if (h.weightsFile.empty()) {
      if (h.weightsBytes)
        return createStringError(
            formatv("the trace needs {0} bytes of weights and names no "
                    "weights_file: give --weights",
                    h.weightsBytes)
                .str());
      return Error::success();
    }
    SmallString<256> local(sys::path::parent_path(tracePath));
    sys::path::append(local, h.weightsFile);
    path = local.str().str();
  }
  auto file = MemoryBuffer::getFile(path, /*IsText=*/false);
  if (!file)
    return createStringError(path + ": " + file.getError().message());
  if (Error e = simulator.loadWeights(
          ArrayRef(reinterpret_cast<const uint8_t *>((*file)->getBufferStart()),
                   (*file)->getBufferSize())))
    return createStringError(path + ": " + toString(std::move(e)));
  return Error::success();
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  SmallVector<const char *> args;
  for (int i = 0; i < argc; ++i) {
    StringRef arg = argv[i];
    if ((arg == "--stats-json" || arg == "-stats-json") && i + 1 < argc) {
      statsPath = argv[++i];
      continue;
    }
    if (arg.consume_front("--stats-json=") ||
        arg.consume_front("-stats-json=")) {
      statsPath = arg.str();
      continue;
    }
    args.push_back(argv[i]);
  }
  cl::ParseCommandLineOptions(args.size(), args.data(),
                              "inferentia trace simulator\n");
  if (!printPreset.empty()) {
    std::optional<Machine> preset = Machine::getPreset(printPreset);
    if (!preset)
      return fail(formatv("unknown preset '{0}' (known: {1})", printPreset,
                          join(Machine::getPresetNames(), ", ")));
    outs() << formatv("{0:2}", json::Value(preset->toJSON())) << "\n";
    return 0;
  }
  if (tracePath.empty())
    return fail("no trace given");
  auto text = MemoryBuffer::getFile(tracePath, /*IsText=*/true);
  if (!text)
    return fail(tracePath + ": " + text.getError().message());
  Expected<Trace> trace = readTrace((*text)->getBuffer());
  if (!trace)
    return fail(tracePath + ": " + toString(trace.takeError()));
  if (!writeTracePath.empty()) {
    std::error_code ec;
    raw_fd_ostream out(writeTracePath, ec, sys::fs::OF_Text);
    if (ec)
      return fail(writeTracePath + ": " + ec.message());
    writeTrace(*trace, out);
  }
  Simulator simulator(std::move(*trace));
  const TraceHeader &h = simulator.getTrace().header;
  const Machine &m = h.machine;
  if (Error e = loadWeights(simulator))
    return fail(toString(std::move(e)));
  if (Error e = loadInputs(simulator))
    return fail(toString(std::move(e)));
  if (Error e = simulator.run())
    return fail(tracePath + ": " + toString(std::move(e)));

  for (StringRef spec : outputs) {
    auto [name, path] = spec.split('=');
    const TraceTensor *t = findTensor(h.outputs, name);
    if (!t || path.empty())
      return fail(formatv("--output {0}: expected NAME=FILE with NAME an "
                          "output of the trace ({1})",
                          spec, tensorNames(h.outputs)));
    Expected<std::vector<float>> values = simulator.readTensor(*t);
    if (!values)
      return fail(toString(values.takeError()));
    std::error_code ec;
    raw_fd_ostream out(path, ec, sys::fs::OF_None);
    if (ec)
      return fail(path + ": " + ec.message());
    out.write(reinterpret_cast<const char *>(values->data()),
              values->size() * 4);
  }
  if (printOutputs)
    for (const TraceTensor &t : h.outputs) {
      Expected<std::vector<float>> values = simulator.readTensor(t);
      if (!values)
        return fail(toString(values.takeError()));
      std::string shape;
      for (int64_t d : t.shape)
        shape += (shape.empty() ? "" : "x") + std::to_string(d);
      outs() << "output " << t.name << " [" << shape << "]:";
      for (float v : *values)
        outs() << " " << formatShortest(v);
      outs() << "\n";
    }

  const SimulationStats &total = simulator.getTotal();
  ArrayRef<SimulationStats> layers = simulator.getLayers();
  outs() << formatv("latency {0:f3} ns, {1} instructions, {2} layers\n",
                    simulator.getLatencySeconds() * 1e9,
                    simulator.getTrace().instructions.size(), layers.size());
  outs() << "total:\n";
  printStats(outs(), m, total);
  // A layer below its physical bound would be a simulator bug: say so.
  std::vector<std::string> belowBound;
  for (auto [i, layer] : enumerate(layers)) {
    const TraceLayer &info = h.layers[i];
    outs() << formatv("layer {0} '{1}'{2}:\n", i, info.name,
                      info.op.empty() ? "" : " (" + info.op + ")");
    printStats(outs(), m, layer);
    double bound = getBoundSeconds(m, layer);
    outs() << formatv("  bound {0:f3} ns\n", bound * 1e9);
    if (layer.getSeconds() < bound * (1 - 1e-12))
      belowBound.push_back(info.name);
  }
  if (belowBound.empty())
    outs() << formatv("bounds: every layer at or above its MAC and DRAM "
                      "bounds ({0} layers)\n",
                      layers.size());
  else
    outs() << "bounds: BELOW the physical bound: " << join(belowBound, ", ")
           << "\n";

  if (!statsPath.empty()) {
    json::Array layerArray;
    for (auto [i, layer] : enumerate(layers)) {
      json::Object o = statsToJSON(m, layer);
      o["name"] = h.layers[i].name;
      o["op"] = h.layers[i].op;
      json::Array fused;
      for (const std::string &f : h.layers[i].fused)
        fused.push_back(f);
      o["fused"] = std::move(fused);
      layerArray.push_back(std::move(o));
    }
    json::Object root{{"latency_seconds", simulator.getLatencySeconds()},
                      {"hardware", m.toJSON()},
                      {"summary", statsToJSON(m, total)},
                      {"layers", std::move(layerArray)},
                      {"bounds_ok", belowBound.empty()}};
    std::error_code ec;
    raw_fd_ostream out(statsPath, ec, sys::fs::OF_Text);
    if (ec)
      return fail(statsPath + ": " + ec.message());
    out << formatv("{0:2}", json::Value(std::move(root))) << "\n";
  }
  return belowBound.empty() ? 0 : 1;
}
