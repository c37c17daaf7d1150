#!/usr/bin/env python3
"""Writes three large inputs for timing gpu-translate against upstream MLIR tools.

usage: gen_inputs.py OUTDIR
  launches.mlir  one binary and 20,000 gpu.launch_func ops (about 3 MB)
  binaries.mlir  2,000 binaries of two 4 KiB objects each, selected by target (about 50 MB)
  blob.mlir      one binary holding a 32 MiB object (about 100 MB of text)
All host code is in the llvm dialect subset that mlir-translate --mlir-to-llvmir accepts."""
import os
import random
import sys


def hexbytes(data):
    return "".join("\\%02X" % b for b in data)


def write(path, lines):
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def launches(n=20000):
    lines = ['module attributes {gpu.container_module} {',
             '  gpu.binary @kernels [#gpu.object<#nvvm.target, "%s">]' % hexbytes(bytes(range(256)) * 4),
             '  llvm.func @main(%arg0: !llvm.ptr, %arg1: f32) {',
             '    %c = llvm.mlir.constant(128 : index) : i64',
             '    %n = llvm.mlir.constant(1024 : i32) : i32']
    for i in range(n):
        lines.append('    gpu.launch_func @kernels::@k%d blocks in (%%c, %%c, %%c) threads in (%%c, %%c, %%c) : i64 '
                     'args(%%arg0 : !llvm.ptr, %%arg1 : f32, %%n : i32, %%arg0 : !llvm.ptr)' % (i % 64))
    return lines + ['    llvm.return', '  }', '}']


def binaries(n=2000):
    blob = hexbytes(bytes(range(256)) * 16)
    lines = ['module attributes {gpu.container_module} {']
    for i in range(n):
        lines.append('  gpu.binary @m%d <#gpu.select_object<#rocdl.target<chip = "gfx90a">>> '
                     '[#gpu.object<#nvvm.target<chip = "sm_90">, "%s">, '
                     '#gpu.object<#rocdl.target<chip = "gfx90a">, "%s">]' % (i, blob, blob))
    lines += ['  llvm.func @main(%arg0: !llvm.ptr) {', '    %c = llvm.mlir.constant(64 : index) : i64']
    for i in range(n):
        lines.append('    gpu.launch_func @m%d::@kernel blocks in (%%c, %%c, %%c) threads in (%%c, %%c, %%c) : i64 '
                     'args(%%arg0 : !llvm.ptr)' % i)
    return lines + ['    llvm.return', '  }', '}']


def blob(size=32 << 20):
    rnd = random.Random(7)
    data = bytes(rnd.getrandbits(8) for _ in range(size))
    return ['module attributes {gpu.container_module} {',
            '  gpu.binary @big [#gpu.object<#nvvm.target<chip = "sm_90">, "%s">]' % hexbytes(data),
            '  llvm.func @main(%arg0: !llvm.ptr) {',
            '    %c = llvm.mlir.constant(1 : index) : i64',
            '    gpu.launch_func @big::@kernel blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64 '
            'args(%arg0 : !llvm.ptr)',
            '    llvm.return', '  }', '}']


if __name__ == "__main__":
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    write(os.path.join(out, "launches.mlir"), launches())
    write(os.path.join(out, "binaries.mlir"), binaries())
    write(os.path.join(out, "blob.mlir"), blob())
