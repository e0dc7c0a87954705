#!/usr/bin/env python3
"""Seed corpora of the fuzzers (tools/fuzz), made from real artifacts at fuzz
time: python3 scripts/fuzz_seeds.py ROOT SEEDS_DIR RELEASE_BIN FUZZ_BIN

  onnx-binary       the ONNX node tests' model.onnx, test/**/*.onnx,
                    examples/tiny_cnn/model.onnx
  onnx-text         the chunks of test/**/*.onnxtxt, and the node tests
                    printed as text (FUZZ_BIN/dlc-fuzz-onnx-to-text)
  snowflake-sim     program.bin of examples/tiny_cnn compiled for snowflake,
                    and the assembly (#--- *.s) of test/Simulator/Snowflake
  inferentia-sim    trace.jsonl of examples/tiny_cnn compiled for inferentia,
                    and the traces (#--- *.jsonl) of test/Simulator/Inferentia
  sunway-weights    weights.bin of examples/tiny_cnn compiled for sunway

Only the standard library: Debian 12's python3 is enough.
"""
import glob
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile

NODE_TESTS = "/usr/share/libonnx-testdata/data/node"


def add(seeds, target, data):
    d = os.path.join(seeds, target)
    os.makedirs(d, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def split_file(path):
    """The files of an LLVM split-file input: {name: text}."""
    files, name, lines = {}, None, []
    for line in read(path).decode("utf-8", "replace").splitlines(True):
        m = re.match(r"^#--- (\S+)\s*$", line)
        if m:
            if name:
                files[name] = "".join(lines)
            name, lines = m.group(1), []
        elif name:
            lines.append(line)
    if name:
        files[name] = "".join(lines)
    return files


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def main():
    root, seeds, release_bin, fuzz_bin = sys.argv[1:5]
    shutil.rmtree(seeds, ignore_errors=True)
    os.makedirs(seeds)
    dlc = os.path.join(release_bin, "dlc")
    translate = os.path.join(release_bin, "dlc-translate")
    to_text = os.path.join(fuzz_bin, "dlc-fuzz-onnx-to-text")

    models = sorted(glob.glob(os.path.join(NODE_TESTS, "*", "model.onnx")))
    models += sorted(glob.glob(os.path.join(root, "test", "**", "*.onnx"),
                               recursive=True))
    example = os.path.join(root, "examples", "tiny_cnn", "model.onnx")
    models.append(example)
    for m in models:
        add(seeds, "onnx-binary", read(m))
        if os.access(to_text, os.X_OK):
            r = run([to_text, m])
            if r.returncode == 0:
                add(seeds, "onnx-text", r.stdout)

    for t in glob.glob(os.path.join(root, "test", "**", "*.onnxtxt"),
                       recursive=True):
        for chunk in re.split(r"^// -----\s*$", read(t).decode(),
                              flags=re.M):
            if chunk.strip():
                add(seeds, "onnx-text", chunk.encode())

    with tempfile.TemporaryDirectory() as tmp:
        for target, files in (("snowflake", ["program.bin"]),
                              ("inferentia", ["trace.jsonl"]),
                              ("sunway", ["weights.bin"])):
            out = os.path.join(tmp, target)
            r = run([dlc, "compile", example, "--target", target, "-o", out])
            if r.returncode != 0:
                sys.stderr.write("fuzz seeds: dlc compile --target %s failed:"
                                 "\n%s" % (target, r.stderr.decode()))
                continue
            for f in files:
                kind = {"program.bin": "snowflake-sim",
                        "trace.jsonl": "inferentia-sim",
                        "weights.bin": "sunway-weights"}[f]
                add(seeds, kind, read(os.path.join(out, f)))

        for test in glob.glob(os.path.join(root, "test", "Simulator",
                                           "Snowflake", "*.test")):
            for name, text in split_file(test).items():
                if not name.endswith(".s"):
                    continue
                src = os.path.join(tmp, "seed.s")
                with open(src, "w") as f:
                    f.write(text)
                binary = os.path.join(tmp, "seed.bin")
                if run([translate, "--snowflake-assemble", src, "-o",
                        binary]).returncode == 0:
                    add(seeds, "snowflake-sim", read(binary))
        for test in glob.glob(os.path.join(root, "test", "Simulator",
                                           "Inferentia", "*.test")):
            for name, text in split_file(test).items():
                if name.endswith(".jsonl"):
                    add(seeds, "inferentia-sim", text.encode())

    for target in sorted(os.listdir(seeds)):
        print("fuzz seeds: %-15s %5d inputs" %
              (target, len(os.listdir(os.path.join(seeds, target)))))


if __name__ == "__main__":
    main()
