// How kernels take memrefs. By default, as upstream's: the descriptor's fields (allocated, aligned, offset,
// sizes, strides), so a kernel reads sizes (memref.dim) and addresses memrefs whose strides it is given. With
// --kernel-bare-ptr-calling-convention, one pointer to element 0, and what a bare pointer does not carry is a
// located error. A launch passes what the kernels of its binary take.
// RUN: gpu-translate --split-input-file --emit=mlir --compile-kernels --gpu-format=assembly %s | gpu-object --all nvvm | FileCheck %s
// RUN: not gpu-translate --split-input-file --emit=obj --kernel-bare-ptr-calling-convention %s -o %t.o 2>&1 | FileCheck %s --check-prefix=BARE
// RUN: not gpu-translate --split-input-file --emit=llvm --targets=cpu %s 2>/dev/null | FileCheck %s --check-prefix=HOST
// RUN: not gpu-translate --split-input-file --emit=llvm --targets=cpu %s 2>&1 >/dev/null | FileCheck %s --check-prefix=MIXED
// RUN: not gpu-translate --split-input-file --emit=llvm --targets=cpu --use-bare-pointers-for-kernels %s 2>/dev/null | FileCheck %s --check-prefix=HOSTBARE

// A 2-D memref of dynamic sizes: seven parameters; the row's stride is parameter 5, the number of rows
// (memref.dim) parameter 3.
// CHECK-LABEL: .visible .entry dynamic(
// CHECK: .param .u64 dynamic_param_6
// CHECK-NEXT: .param .u64 .ptr .align 1 dynamic_param_7
// CHECK: ld.param.u64 {{%rd[0-9]+}}, [dynamic_param_5];
// BARE: kernel-arguments.mlir:[[# @LINE + 6]]:15: error: Invalid memref.dim in a kernel (must ask by a constant for a static dimension or one the kernel was given: with bare pointers a kernel gets no sizes): memref<?x?xf32>
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90">] {
    gpu.func @dynamic(%m: memref<?x?xf32>, %out: memref<f32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %rows = memref.dim %m, %c0 : memref<?x?xf32>
      %last = arith.subi %rows, %c1 : index
      %v = memref.load %m[%last, %c1] : memref<?x?xf32>
      memref.store %v, %out[] : memref<f32>
      gpu.return
    }
  }
}

// -----

// A view of dynamic strides keeps the strides it is given: a subview's step times its source's.
// CHECK-LABEL: .visible .entry strided(
// CHECK: ld.param.u64 {{%rd[0-9]+}}, [strided_param_4];
// BARE: kernel-arguments.mlir:[[# @LINE + 6]]:12: error: Invalid memref.subview in a kernel (must view a memref of static strides where it has an offset, or strides the kernel was given: with bare pointers a kernel gets none): memref<?xf32, strided<[?], offset: ?>>
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90">] {
    gpu.func @strided(%m: memref<?xf32, strided<[?], offset: ?>>, %out: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c3 = arith.constant 3 : index
      %s = memref.subview %m[1] [4] [2] : memref<?xf32, strided<[?], offset: ?>> to memref<4xf32, strided<[?], offset: ?>>
      %v = memref.load %s[%c3] : memref<4xf32, strided<[?], offset: ?>>
      memref.store %v, %out[%c0] : memref<4xf32>
      gpu.return
    }
  }
}

// -----

// The host side: a launch passes each field of the descriptor, one kernel parameter each (upstream's default),
// or with bare pointers the address of element 0 (the aligned pointer moved by the offset).
// HOST-LABEL: define void @launch(
// HOST: call void @mgpuLaunchKernel({{.*}}, ptr null, i64 5)
// HOSTBARE-LABEL: define void @launch(
// HOSTBARE: getelementptr float, ptr %{{[0-9]+}}, i64 %{{[0-9]+}}
// HOSTBARE: call void @mgpuLaunchKernel({{.*}}, ptr null, i64 1)
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @one(%m: memref<?xf32>) kernel {
      gpu.return
    }
  }
  func.func @launch(%m: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@one blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<?xf32>)
    return
  }
}

// -----

// A binary made elsewhere whose objects say that their kernels take bare pointers is launched so, option or
// not; objects that disagree are a located error, since one launch serves them all.
// HOST-LABEL: define void @launch_own(
// HOST: call void @mgpuLaunchKernel({{.*}}, ptr null, i64 1)
// MIXED: kernel-arguments.mlir:[[# @LINE + 16]]:5: error: Invalid kernel module for a launch (must have objects that all take memrefs one way, bare pointers or descriptors): @mixed has 1 of 2 with mgpu.bare_pointers
module attributes {gpu.container_module} {
  gpu.binary @own [#gpu.object<#cpu.target, properties = {mgpu.bare_pointers}, "">]
  func.func @launch_own(%m: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @own::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<?xf32>)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @mixed <#gpu.runtime_select> [#gpu.object<#cpu.target, properties = {mgpu.bare_pointers}, "">, #gpu.object<#nvvm.target, "">]
  func.func @launch_mixed(%m: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @mixed::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<?xf32>)
    return
  }
}
