// A host function and its kernel as upstream's pipelines take them: the kernel reads its memref's size
// (memref.dim), so it needs the descriptor's fields that upstream's default convention passes. FakeDriverTest
// lowers this file with mlir-opt-22 -gpu-lower-to-nvvm-pipeline and translates it with mlir-translate-22, and
// launches the same PTX from mgpu's translation of the host function; both must pass what the kernel takes.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%m: memref<?xf32>, %f: f32) kernel {
      %c0 = arith.constant 0 : index
      %n = memref.dim %m, %c0 : memref<?xf32>
      %b = gpu.block_id x
      %bd = gpu.block_dim x
      %t = gpu.thread_id x
      %bb = arith.muli %b, %bd : index
      %i = arith.addi %bb, %t : index
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %v = memref.load %m[%i] : memref<?xf32>
        %w = arith.mulf %v, %f : f32
        memref.store %w, %m[%i] : memref<?xf32>
      }
      gpu.return
    }
  }

  func.func @scale_all(%m: memref<?xf32>, %f: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %n = memref.dim %m, %c0 : memref<?xf32>
    %n63 = arith.addi %n, %c63 : index
    %blocks = arith.divui %n63, %c64 : index
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] (%n) : memref<?xf32>
    %t2 = gpu.memcpy async [%t1] %d, %m : memref<?xf32>, memref<?xf32>
    %t3 = gpu.launch_func async [%t2] @kernels::@scale blocks in (%blocks, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%d : memref<?xf32>, %f : f32)
    %t4 = gpu.memcpy async [%t3] %m, %d : memref<?xf32>, memref<?xf32>
    %t5 = gpu.dealloc async [%t4] %d : memref<?xf32>
    gpu.wait [%t5]
    return
  }
}
