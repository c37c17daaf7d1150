// RUN: gpu-translate --split-input-file --emit=mlir --compile-kernels --gpu-format=assembly %s | gpu-object --all nvvm | FileCheck %s

// What kernels compute, as upstream means it, in the PTX they become.

// A global's initial value is kept (and a constant one folded into the store).
// CHECK-LABEL: .visible .entry from_global(
// CHECK: mov.b32 {{%r[0-9]+}}, 42;
// CHECK: st.global.u32
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90">] {
    llvm.mlir.global internal constant @tbl(42 : i32) {addr_space = 1 : i32} : i32
    llvm.func @from_global(%out: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      %a = llvm.mlir.addressof @tbl : !llvm.ptr<1>
      %v = llvm.load %a : !llvm.ptr<1> -> i32
      llvm.store %v, %out : i32, !llvm.ptr
      llvm.return
    }
  }
}

// -----

// A memref's offset: the kernel gets the descriptor's fields (upstream's default), and element 0 is the aligned
// pointer (parameter 1) moved by the layout's static offset, 2 floats; the fields it does not use are still there.
// CHECK-LABEL: .visible .entry offset(
// CHECK: .param .u64 .ptr .align 1 offset_param_0,
// CHECK: .param .u64 offset_param_9
// CHECK-NEXT: )
// CHECK: ld.param.u64 {{%rd[0-9]+}}, [offset_param_1];
// CHECK: ld.global.f32 {{%f[0-9]+}}, [{{%rd[0-9]+}}+8];
// CHECK: ld.global.f32 {{%f[0-9]+}}, [{{%rd[0-9]+}}+12];
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90">] {
    gpu.func @offset(%m: memref<4xf32, strided<[1], offset: 2>>, %out: memref<2xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %a = memref.load %m[%c0] : memref<4xf32, strided<[1], offset: 2>>
      %b = memref.load %m[%c1] : memref<4xf32, strided<[1], offset: 2>>
      memref.store %a, %out[%c0] : memref<2xf32>
      memref.store %b, %out[%c1] : memref<2xf32>
      gpu.return
    }
  }
}

// -----

// gpu.global_id is computed in index width: no 32-bit product that wraps past 2^32 threads.
// CHECK-LABEL: .visible .entry global_id(
// CHECK-NOT: mad.lo.s32
// CHECK: mul.wide.u32
// CHECK: st.global.u64
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90">] {
    gpu.func @global_id(%out: memref<1xindex>) kernel {
      %c0 = arith.constant 0 : index
      %g = gpu.global_id x
      memref.store %g, %out[%c0] : memref<1xindex>
      gpu.return
    }
  }
}

// -----

// bf16 intrinsics are named for bf16.
// CHECK-LABEL: .visible .entry bf16(
// CHECK: max.NaN.bf16
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90">] {
    gpu.func @bf16(%p: memref<2xbf16>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %a = memref.load %p[%c0] : memref<2xbf16>
      %b = memref.load %p[%c1] : memref<2xbf16>
      %m = arith.maximumf %a, %b : bf16
      memref.store %m, %p[%c0] : memref<2xbf16>
      gpu.return
    }
  }
}
