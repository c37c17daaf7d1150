// A 5-point Jacobi step on a 64x64 grid: out = 0.25 * (up + down + left + right) inside, in copied on the
// border. One thread per point, 2-D blocks.
module attributes {gpu.container_module} {
  gpu.module @stencil_kernels [#nvvm.target<chip = "sm_90">, #nvvm.target<chip = "sm_80">, #rocdl.target<chip = "gfx90a">] {
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
}
