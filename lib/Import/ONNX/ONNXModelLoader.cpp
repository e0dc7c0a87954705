//===- ONNXModelLoader.cpp - libonnx calls that may throw -----------------===//
//
// Compiled with -fexceptions (see CMakeLists.txt): libonnx's checker, shape
// inference and parser throw. Everything is caught here.
//
//===----------------------------------------------------------------------===//

#include "ONNXModelLoader.h"

#include "onnx/checker.h"
#include "onnx/defs/parser.h"
#include "onnx/shape_inference/implementation.h"

#include <google/protobuf/io/coded_stream.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <exception>
#include <limits>
#include <string>

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace dlc::onnx_import;

std::string dlc::onnx_import::parseBinaryModel(const char *data, size_t size,
                                               onnx::ModelProto &model) {
  try {
    if (size > static_cast<size_t>(std::numeric_limits<int>::max()))
      return "model is larger than protobuf's 2 GB limit";
    google::protobuf::io::CodedInputStream stream(
        reinterpret_cast<const uint8_t *>(data), static_cast<int>(size));
    // Protobuf's default 64 MB limit is below the size of real models.
    stream.SetTotalBytesLimit(std::numeric_limits<int>::max());
    if (!model.ParseFromCodedStream(&stream) || !stream.ConsumedEntireMessage())
      return "not a valid binary ONNX model (truncated or corrupt protobuf)";
    if (!model.has_graph())
      return "not a valid binary ONNX model (no graph)";
    return {};
  } catch (const std::exception &e) {
    return std::string("not a valid binary ONNX model: ") + e.what();
  } catch (...) {
    return "not a valid binary ONNX model";
  }
}

/// libonnx's text parser recurses once per nested subgraph, attribute list or
/// type, so deep nesting overflows the stack. Real models nest a few levels.
static constexpr int kMaxTextNestingDepth = 256;

/// Whether the brackets ((), [], {}, <>) of ONNX text syntax nest deeper than
/// kMaxTextNestingDepth, outside string literals and '#' comments as the
/// parser reads them. The '>' of '=>' closes nothing.
static bool exceedsTextNestingDepth(const std::string &text) {
  int depth = 0;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    switch (text[i]) {
    case '#':
      while (i < e && text[i] != '\n')
        ++i;
      break;
    case '"':
      for (++i; i < e && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
      break;
    case '(':
    case '[':
    case '{':
    case '<':
      if (++depth > kMaxTextNestingDepth)
        return true;
      break;
    case '>':
      if (i > 0 && text[i - 1] == '=')
        break;
      [[fallthrough]];
    case ')':
    case ']':
    case '}':
      depth = depth > 0 ? depth - 1 : 0;
      break;
    default:
      break;
    }
  }
  return false;
}

std::string dlc::onnx_import::parseTextModel(const std::string &text,
                                             onnx::ModelProto &model) {
  if (exceedsTextNestingDepth(text))
    return "invalid ONNX text syntax: brackets nest deeper than " +
           std::to_string(kMaxTextNestingDepth) + " levels";
  try {
    onnx::OnnxParser parser(text.c_str());
    onnx::Status status = parser.Parse(model);
    if (!status.IsOK())
      return "invalid ONNX text syntax: " + status.ErrorMessage();
    if (!parser.EndOfInput())
      return "invalid ONNX text syntax: unexpected text after the graph";
    return {};
  } catch (const std::exception &e) {
    return std::string("invalid ONNX text syntax: ") + e.what();
  } catch (...) {
    return "invalid ONNX text syntax";
  }
}

static std::string runCheckerAndShapeInference(onnx::ModelProto &model,
                                               bool checkAndStrict) {
  if (checkAndStrict) {
    try {
      onnx::checker::check_model(model);
    } catch (const std::exception &e) {
      return std::string("ONNX checker: ") + e.what();
    } catch (...) {
      return "ONNX checker failed";
    }
  }
  try {
    onnx::ShapeInferenceOptions options(/*check_type_val=*/checkAndStrict,
                                        /*strict_mode_val=*/checkAndStrict,
                                        /*data_prop_val=*/true);
    onnx::shape_inference::InferShapes(
        model, onnx::OpSchemaRegistry::Instance(), options);
  } catch (const std::exception &e) {
    return std::string("ONNX shape inference: ") + e.what();
  } catch (...) {
    return "ONNX shape inference failed";
  }
  return {};
}

/// How long the isolated checker and shape inference may run. Real models
/// take well under a second; libonnx loops in time linear in a dimension's
/// value on some inputs.
static constexpr int kShapeInferenceTimeoutSeconds = 60;

namespace {
/// What the isolated run of the checker and shape inference came to.
struct IsolatedRun {
  enum Kind { Finished, Crashed, TimedOut, CannotFork } kind = Finished;
  /// For Finished: the checker's or shape inference's message, or empty;
  /// for CannotFork: why.
  std::string error;
  /// For Crashed: the signal that ended the child, or 0 if it exited.
  int signal = 0;
};
} // namespace

/// Runs the checker and shape inference (on the first `nodeCount` top-level
/// nodes when it is not negative) in a forked child, so that a crash or a
/// hang inside libonnx ends the child and not dlc. The child writes 'O' or
/// 'E' and the message to a pipe.
static IsolatedRun runIsolated(onnx::ModelProto &model, int nodeCount) {
  IsolatedRun run;
  // Static registries are built in the parent, so the child takes no lock
  // another thread might have held at fork time.
  (void)onnx::OpSchemaRegistry::Instance();
  int fds[2];
  if (pipe(fds) != 0) {
    run.kind = IsolatedRun::CannotFork;
    run.error = std::strerror(errno);
    return run;
  }
  pid_t pid = fork();
  if (pid < 0) {
    run.error = std::strerror(errno);
    close(fds[0]);
    close(fds[1]);
    run.kind = IsolatedRun::CannotFork;
    return run;
  }
  if (pid == 0) {
    close(fds[0]);
    // Default dispositions: a fault kills the child quietly, instead of
    // reaching a sanitizer's or libFuzzer's handler (which would report the
    // libonnx fault as dlc's own).
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP}) {
      struct sigaction action = {};
      action.sa_handler = SIG_DFL;
      sigemptyset(&action.sa_mask);
      sigaction(sig, &action, nullptr);
    }
    std::string error;
    if (nodeCount < 0) {
      error = runCheckerAndShapeInference(model, /*checkAndStrict=*/true);
    } else {
      auto *nodes = model.mutable_graph()->mutable_node();
      nodes->DeleteSubrange(nodeCount, nodes->size() - nodeCount);
      error = runCheckerAndShapeInference(model, /*checkAndStrict=*/false);
    }
    std::string reply = (error.empty() ? "O" : "E") + error;
    for (size_t done = 0; done < reply.size();) {
      ssize_t n = write(fds[1], reply.data() + done, reply.size() - done);
      if (n <= 0)
        break;
      done += static_cast<size_t>(n);
    }
    close(fds[1]);
    // No exit handlers: they belong to the parent (leak checks, lit output).
    _exit(0);
  }
  close(fds[1]);
  std::string reply;
  bool timedOut = false;
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::seconds(kShapeInferenceTimeoutSeconds);
  while (true) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    deadline - std::chrono::steady_clock::now())
                    .count();
    if (left <= 0) {
      timedOut = true;
      break;
    }
    struct pollfd pfd = {fds[0], POLLIN, 0};
    int ready = poll(&pfd, 1, static_cast<int>(left));
    if (ready < 0 && errno == EINTR)
      continue;
    if (ready <= 0) {
      timedOut = ready == 0;
      break;
    }
    char buffer[4096];
    ssize_t n = read(fds[0], buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    reply.append(buffer, static_cast<size_t>(n));
  }
  close(fds[0]);
  if (timedOut)
    kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (timedOut) {
    run.kind = IsolatedRun::TimedOut;
  } else if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && !reply.empty()) {
    run.error = reply.substr(1);
  } else {
    run.kind = IsolatedRun::Crashed;
    run.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  }
  return run;
}

/// The index of the first top-level node whose shape inference crashes, by
/// bisection over node prefixes, or -1 if no prefix crashes (the fault is
/// in the checker, or needs the whole graph).
static int findCrashingNode(onnx::ModelProto &model) {
  int nodeCount = model.graph().node_size();
  if (runIsolated(model, nodeCount).kind != IsolatedRun::Crashed)
    return -1;
  // Invariant: the first `low` nodes do not crash, the first `high` do.
  int low = 0, high = nodeCount;
  while (high - low > 1) {
    int middle = low + (high - low) / 2;
    if (runIsolated(model, middle).kind == IsolatedRun::Crashed)
      high = middle;
    else
      low = middle;
  }
  return high - 1;
}

std::string dlc::onnx_import::checkAndInferShapes(onnx::ModelProto &model,
                                                  int &failingNode) {
  failingNode = -1;
  IsolatedRun run = runIsolated(model, /*nodeCount=*/-1);
  switch (run.kind) {
  case IsolatedRun::Finished:
    if (!run.error.empty())
      return run.error;
    // The checker and inference are known to pass: run them here, where
    // their results (the value_info entries) are kept.
    return runCheckerAndShapeInference(model, /*checkAndStrict=*/true);
  case IsolatedRun::CannotFork:
    return "cannot start ONNX shape inference in a child process: " + run.error;
  case IsolatedRun::TimedOut:
    return "ONNX checker and shape inference did not finish in " +
           std::to_string(kShapeInferenceTimeoutSeconds) +
           " s (libonnx loops on some out-of-range attributes)";
  case IsolatedRun::Crashed:
    break;
  }
  failingNode = findCrashingNode(model);
  std::string how = run.signal ? "with signal " + std::to_string(run.signal) +
                                     " (" + strsignal(run.signal) + ")"
                               : "abnormally";
  return "ONNX shape inference (libonnx) crashed " + how +
         (failingNode >= 0 ? " on this node" : "") +
         "; the node's inputs or attributes are outside what libonnx checks";
}
