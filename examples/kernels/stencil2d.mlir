// A 5-point Jacobi step on a 64x64 grid: out = 0.25 * (up + down + left + right) inside, in copied on the
// border. One thread per point, 2-D blocks.
// One source for every device: the kernel compiles for NVIDIA (sm_90, sm_80), AMD (gfx90a) and the CPU in
// one gpu-translate run, and the program picks the object for the device it finds (run.sh builds and runs it).
module attributes {gpu.container_module} {
  gpu.module @stencil_kernels <#gpu.runtime_select> [#nvvm.target<chip = "sm_90">, #nvvm.target<chip = "sm_80">, #rocdl.target<chip = "gfx90a">, #cpu.target] {
    gpu.func @stencil2d(%in: memref<64x64xf32>, %out: memref<64x64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c63 = arith.constant 63 : index
      %c64 = arith.constant 64 : index
      %quarter = arith.constant 0.25 : f32
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %dx = gpu.block_dim x
      %dy = gpu.block_dim y
      %x0 = arith.muli %bx, %dx : index
      %x = arith.addi %x0, %tx : index
      %y0 = arith.muli %by, %dy : index
      %y = arith.addi %y0, %ty : index
      %xin = arith.cmpi slt, %x, %c64 : index
      %yin = arith.cmpi slt, %y, %c64 : index
      %inside = arith.andi %xin, %yin : i1
      scf.if %inside {
        %xl = arith.cmpi sgt, %x, %c0 : index
        %xh = arith.cmpi slt, %x, %c63 : index
        %yl = arith.cmpi sgt, %y, %c0 : index
        %yh = arith.cmpi slt, %y, %c63 : index
        %a = arith.andi %xl, %xh : i1
        %b = arith.andi %yl, %yh : i1
        %interior = arith.andi %a, %b : i1
        %v = scf.if %interior -> (f32) {
          %ym = arith.subi %y, %c1 : index
          %yp = arith.addi %y, %c1 : index
          %xm = arith.subi %x, %c1 : index
          %xp = arith.addi %x, %c1 : index
          %up = memref.load %in[%ym, %x] : memref<64x64xf32>
          %down = memref.load %in[%yp, %x] : memref<64x64xf32>
          %left = memref.load %in[%y, %xm] : memref<64x64xf32>
          %right = memref.load %in[%y, %xp] : memref<64x64xf32>
          %s0 = arith.addf %up, %down : f32
          %s1 = arith.addf %left, %right : f32
          %s = arith.addf %s0, %s1 : f32
          %r = arith.mulf %s, %quarter : f32
          scf.yield %r : f32
        } else {
          %c = memref.load %in[%y, %x] : memref<64x64xf32>
          scf.yield %c : f32
        }
        memref.store %v, %out[%y, %x] : memref<64x64xf32>
      }
      gpu.return
    }
  }

  // run_stencil(in, out, reps): one Jacobi step from in to out on the device, reps times.
  func.func @run_stencil(%hin: memref<64x64xf32>, %hout: memref<64x64xf32>, %reps: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %t0 = gpu.wait async
    %din, %t1 = gpu.alloc async [%t0] () : memref<64x64xf32>
    %dout, %t2 = gpu.alloc async [%t1] () : memref<64x64xf32>
    %t3 = gpu.memcpy async [%t2] %din, %hin : memref<64x64xf32>, memref<64x64xf32>
    %t5 = scf.for %i = %c0 to %reps step %c1 iter_args(%t = %t3) -> (!gpu.async.token) {
      %tn = gpu.launch_func async [%t] @stencil_kernels::@stencil2d blocks in (%c4, %c4, %c1) threads in (%c16, %c16, %c1)
          args(%din : memref<64x64xf32>, %dout : memref<64x64xf32>)
      scf.yield %tn : !gpu.async.token
    }
    %t6 = gpu.memcpy async [%t5] %hout, %dout : memref<64x64xf32>, memref<64x64xf32>
    %t7 = gpu.dealloc async [%t6] %din : memref<64x64xf32>
    %t8 = gpu.dealloc async [%t7] %dout : memref<64x64xf32>
    gpu.wait [%t8]
    return
  }
}
