// Kernels whose threads work together, for #cpu.target (and one written in place, a gpu.launch): shuffles of every mode and width in a 2-D block
// whose second subgroup is partial, and a block-wise kernel with workgroup memory, private memory that
// lives across barriers, a barrier in an scf.for that carries a value, a divergent scf.if between
// barriers, and a barrier in an scf.if on a kernel argument. main.c checks every number.
module attributes {gpu.container_module} {
  gpu.module @k [#cpu.target] {
    // Thread t = 16 * y + x of a 16x3 block: v = t + 0.5, w = 3t + 2^40; out[4t + m] and ok[4t + m] for
    // m = xor 5 (width 32), up 3 (width 16), down 6 (width 8), idx 9 (width 16); wide[t] = w xor 1.
    gpu.func @shuffles(%out: memref<256xf32>, %ok: memref<256xi32>, %wide: memref<64xi64>) kernel {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %c16 = arith.constant 16 : index
      %row = arith.muli %ty, %c16 : index
      %t = arith.addi %row, %tx : index
      %ti = arith.index_cast %t : index to i32
      %f = arith.sitofp %ti : i32 to f32
      %half = arith.constant 0.5 : f32
      %v = arith.addf %f, %half : f32
      %t64 = arith.index_cast %t : index to i64
      %three = arith.constant 3 : i64
      %big = arith.constant 1099511627776 : i64
      %t3 = arith.muli %t64, %three : i64
      %w = arith.addi %t3, %big : i64
      %i1 = arith.constant 1 : i32
      %i3 = arith.constant 3 : i32
      %i5 = arith.constant 5 : i32
      %i6 = arith.constant 6 : i32
      %i8 = arith.constant 8 : i32
      %i9 = arith.constant 9 : i32
      %i16 = arith.constant 16 : i32
      %i32 = arith.constant 32 : i32
      %x, %xok = gpu.shuffle xor %v, %i5, %i32 : f32
      %u, %uok = gpu.shuffle up %v, %i3, %i16 : f32
      %d, %dok = gpu.shuffle down %v, %i6, %i8 : f32
      %s, %sok = gpu.shuffle idx %v, %i9, %i16 : f32
      %wx, %wxok = gpu.shuffle xor %w, %i1, %i32 : i64
      %c4 = arith.constant 4 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %b0 = arith.muli %t, %c4 : index
      %b1 = arith.addi %b0, %c1 : index
      %b2 = arith.addi %b0, %c2 : index
      %b3 = arith.addi %b0, %c3 : index
      memref.store %x, %out[%b0] : memref<256xf32>
      memref.store %u, %out[%b1] : memref<256xf32>
      memref.store %d, %out[%b2] : memref<256xf32>
      memref.store %s, %out[%b3] : memref<256xf32>
      %k0 = arith.extui %xok : i1 to i32
      %k1 = arith.extui %uok : i1 to i32
      %k2 = arith.extui %dok : i1 to i32
      %k3 = arith.extui %sok : i1 to i32
      memref.store %k0, %ok[%b0] : memref<256xi32>
      memref.store %k1, %ok[%b1] : memref<256xi32>
      memref.store %k2, %ok[%b2] : memref<256xi32>
      memref.store %k3, %ok[%b3] : memref<256xi32>
      memref.store %wx, %wide[%t] : memref<64xi64>
      gpu.return
    }

    // Block b of 128 threads, thread t, i = 128b + t: rev[i] = in[128b + 127 - t] (through workgroup
    // memory); steps[i] = rev + 7 (carried through 7 iterations of a loop with a barrier); sums[b] = the
    // block's sum (a tree in workgroup memory, one barrier per level); mine[i] = in[i] (kept in private
    // memory across the barriers) plus, when %flag, the block's sum read after a barrier in an scf.if.
    gpu.func @blockwise(%in: memref<8192xf32>, %rev: memref<8192xf32>, %steps: memref<8192xf32>,
        %mine: memref<8192xf32>, %sums: memref<64xf32>, %flag: i1)
        workgroup(%wg: memref<128xf32, #gpu.address_space<workgroup>>) kernel {
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %n = gpu.block_dim x
      %base = arith.muli %b, %n : index
      %i = arith.addi %base, %t : index
      %v = memref.load %in[%i] : memref<8192xf32>
      %p = memref.alloca() : memref<1xf32>
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c7 = arith.constant 7 : index
      %c64 = arith.constant 64 : index
      memref.store %v, %p[%c0] : memref<1xf32>
      memref.store %v, %wg[%t] : memref<128xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %last = arith.subi %n, %c1 : index
      %r = arith.subi %last, %t : index
      %rv = memref.load %wg[%r] : memref<128xf32, #gpu.address_space<workgroup>>
      memref.store %rv, %rev[%i] : memref<8192xf32>
      gpu.barrier
      %one = arith.constant 1.0 : f32
      %acc = scf.for %k = %c0 to %c7 step %c1 iter_args(%a = %rv) -> (f32) {
        %s = arith.shrui %c64, %k : index
        %active = arith.cmpi ult, %t, %s : index
        scf.if %active {
          %j = arith.addi %t, %s : index
          %x = memref.load %wg[%t] : memref<128xf32, #gpu.address_space<workgroup>>
          %y = memref.load %wg[%j] : memref<128xf32, #gpu.address_space<workgroup>>
          %xy = arith.addf %x, %y : f32
          memref.store %xy, %wg[%t] : memref<128xf32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
        %a2 = arith.addf %a, %one : f32
        scf.yield %a2 : f32
      }
      memref.store %acc, %steps[%i] : memref<8192xf32>
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        %total = memref.load %wg[%c0] : memref<128xf32, #gpu.address_space<workgroup>>
        memref.store %total, %sums[%b] : memref<64xf32>
      }
      %zero = arith.constant 0.0 : f32
      %extra = scf.if %flag -> (f32) {
        gpu.barrier
        %seen = memref.load %wg[%c0] : memref<128xf32, #gpu.address_space<workgroup>>
        scf.yield %seen : f32
      } else {
        scf.yield %zero : f32
      }
      %own = memref.load %p[%c0] : memref<1xf32>
      %sum = arith.addf %own, %extra : f32
      memref.store %sum, %mine[%i] : memref<8192xf32>
      gpu.return
    }
    // Thread t of 1024 (the most a block has): private memory that reaches a select and an scf.if's
    // result, and 8 KiB of it per thread, all across a barrier: escapes[t] = t + 2t + 3t.
    gpu.func @escapes(%out: memref<1024xf32>, %flag: i1) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c2047 = arith.constant 2047 : index
      %big = memref.alloca() : memref<2048xf32>
      %small = memref.alloca() : memref<1xf32>
      %m = arith.select %flag, %small, %small : memref<1xf32>
      %q = scf.if %flag -> (memref<1xf32>) {
        %a = memref.alloca() : memref<1xf32>
        scf.yield %a : memref<1xf32>
      } else {
        scf.yield %small : memref<1xf32>
      }
      %ti = arith.index_cast %t : index to i32
      %f = arith.sitofp %ti : i32 to f32
      %two = arith.constant 2.0 : f32
      %three = arith.constant 3.0 : f32
      %f2 = arith.mulf %f, %two : f32
      %f3 = arith.mulf %f, %three : f32
      memref.store %f, %m[%c0] : memref<1xf32>
      memref.store %f2, %q[%c0] : memref<1xf32>
      memref.store %f3, %big[%c2047] : memref<2048xf32>
      gpu.barrier
      %x = memref.load %m[%c0] : memref<1xf32>
      %y = memref.load %q[%c0] : memref<1xf32>
      %z = memref.load %big[%c2047] : memref<2048xf32>
      %xy = arith.addf %x, %y : f32
      %xyz = arith.addf %xy, %z : f32
      memref.store %xyz, %out[%t] : memref<1024xf32>
      gpu.return
    }

    // Two blocks of 64 threads, thread t, subgroup t / 32: the second subgroup shuffles xor 16, the first
    // down 1, each in its own branch (a subgroup's threads agree, a block's do not):
    // warps[64b + t] = t + (t xor 16) in the second, the value of lane + 1 (its own in lane 31) in the first.
    gpu.func @warps(%out: memref<128xf32>) kernel {
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %w = arith.constant 32 : i32
      %o1 = arith.constant 1 : i32
      %o16 = arith.constant 16 : i32
      %ti = arith.index_cast %t : index to i32
      %v = arith.sitofp %ti : i32 to f32
      %base = arith.muli %b, %c64 : index
      %i = arith.addi %base, %t : index
      %warp = arith.divui %t, %c32 : index
      %one = arith.index_cast %o1 : i32 to index
      %isSecond = arith.cmpi eq, %warp, %one : index
      %r = scf.if %isSecond -> (f32) {
        %s, %ok = gpu.shuffle xor %v, %o16, %w : f32
        %sum = arith.addf %v, %s : f32
        scf.yield %sum : f32
      } else {
        %d, %dok = gpu.shuffle down %v, %o1, %w : f32
        scf.yield %d : f32
      }
      memref.store %r, %out[%i] : memref<128xf32>
      gpu.return
    }
    // Blocks of 128 threads: a tree sum in workgroup memory in an scf.while that halves its stride with
    // a barrier per level; halving[b] = the block's sum, levels[128b + t] = the levels every thread counted (7).
    gpu.func @halving(%in: memref<256xf32>, %sums: memref<2xf32>, %levels: memref<256xi32>)
        workgroup(%wg: memref<128xf32, #gpu.address_space<workgroup>>) kernel {
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %zero = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %base = arith.muli %b, %c128 : index
      %i = arith.addi %base, %t : index
      %v = memref.load %in[%i] : memref<256xf32>
      memref.store %v, %wg[%t] : memref<128xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %end:2 = scf.while (%s = %c64, %n = %zero) : (index, i32) -> (index, i32) {
        %more = arith.cmpi ugt, %s, %c0 : index
        scf.condition(%more) %s, %n : index, i32
      } do {
      ^bb0(%s2: index, %n2: i32):
        %active = arith.cmpi ult, %t, %s2 : index
        scf.if %active {
          %j = arith.addi %t, %s2 : index
          %x = memref.load %wg[%t] : memref<128xf32, #gpu.address_space<workgroup>>
          %y = memref.load %wg[%j] : memref<128xf32, #gpu.address_space<workgroup>>
          %xy = arith.addf %x, %y : f32
          memref.store %xy, %wg[%t] : memref<128xf32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
        %half = arith.shrui %s2, %c1 : index
        %n3 = arith.addi %n2, %one : i32
        scf.yield %half, %n3 : index, i32
      }
      memref.store %end#1, %levels[%i] : memref<256xi32>
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        %total = memref.load %wg[%c0] : memref<128xf32, #gpu.address_space<workgroup>>
        memref.store %total, %sums[%b] : memref<2xf32>
      }
      gpu.return
    }
    // A device function with barriers, inlined into the kernel that calls it: thread t of block b gets
    // v + the value of thread 63 - t (through workgroup memory the kernel passes), twice over (two calls).
    func.func @mirror(%v: f32, %t: index, %wg: memref<64xf32, #gpu.address_space<workgroup>>) -> f32 {
      %c63 = arith.constant 63 : index
      memref.store %v, %wg[%t] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %r = arith.subi %c63, %t : index
      %u = memref.load %wg[%r] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %s = arith.addf %u, %v : f32
      return %s : f32
    }

    gpu.func @viafunction(%x: memref<128xf32>) workgroup(%wg: memref<64xf32, #gpu.address_space<workgroup>>) kernel {
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %c64 = arith.constant 64 : index
      %base = arith.muli %b, %c64 : index
      %i = arith.addi %base, %t : index
      %v = memref.load %x[%i] : memref<128xf32>
      %once = func.call @mirror(%v, %t, %wg) : (f32, index, memref<64xf32, #gpu.address_space<workgroup>>) -> f32
      %twice = func.call @mirror(%once, %t, %wg) : (f32, index, memref<64xf32, #gpu.address_space<workgroup>>) -> f32
      memref.store %twice, %x[%i] : memref<128xf32>
      gpu.return
    }
    // Thread t of a 64-thread block, 4 iterations of a loop around two barriers that carries three values:
    // a, doubled before the first barrier and used nowhere else; b, plus one before the first barrier but
    // read again after it (its new value must not take the old one's place early); c, plus b's step as read
    // after the barrier and the doubled a of thread 63 - t. carried[3t], [3t + 1], [3t + 2] = a, b, c.
    gpu.func @carried(%out: memref<192xf32>) workgroup(%wg: memref<64xf32, #gpu.address_space<workgroup>>) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c63 = arith.constant 63 : index
      %one = arith.constant 1.0 : f32
      %two = arith.constant 2.0 : f32
      %zero = arith.constant 0.0 : f32
      %ti = arith.index_cast %t : index to i32
      %tf = arith.sitofp %ti : i32 to f32
      %r:3 = scf.for %k = %c0 to %c4 step %c1 iter_args(%a = %tf, %b = %tf, %c = %zero) -> (f32, f32, f32) {
        %a2 = arith.mulf %a, %two : f32
        %b2 = arith.addf %b, %one : f32
        memref.store %a2, %wg[%t] : memref<64xf32, #gpu.address_space<workgroup>>
        gpu.barrier
        %m = arith.subi %c63, %t : index
        %other = memref.load %wg[%m] : memref<64xf32, #gpu.address_space<workgroup>>
        %step = arith.subf %b2, %b : f32
        %cs = arith.addf %c, %step : f32
        %c2n = arith.addf %cs, %other : f32
        gpu.barrier
        scf.yield %a2, %b2, %c2n : f32, f32, f32
      }
      %o = arith.muli %t, %c3 : index
      memref.store %r#0, %out[%o] : memref<192xf32>
      %o1 = arith.addi %o, %c1 : index
      memref.store %r#1, %out[%o1] : memref<192xf32>
      %o2 = arith.addi %o, %c2 : index
      memref.store %r#2, %out[%o2] : memref<192xf32>
      gpu.return
    }
  }

  func.func @run_shuffles(%out: memref<256xf32>, %ok: memref<256xi32>, %wide: memref<64xi64>) {
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @k::@shuffles blocks in (%c1, %c1, %c1) threads in (%c16, %c3, %c1)
        args(%out : memref<256xf32>, %ok : memref<256xi32>, %wide : memref<64xi64>)
    return
  }

  func.func @run_blockwise(%in: memref<8192xf32>, %rev: memref<8192xf32>, %steps: memref<8192xf32>,
      %mine: memref<8192xf32>, %sums: memref<64xf32>, %flag: i1) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    gpu.launch_func @k::@blockwise blocks in (%c64, %c1, %c1) threads in (%c128, %c1, %c1)
        args(%in : memref<8192xf32>, %rev : memref<8192xf32>, %steps : memref<8192xf32>, %mine : memref<8192xf32>,
             %sums : memref<64xf32>, %flag : i1)
    return
  }

  func.func @run_escapes(%out: memref<1024xf32>, %warps: memref<128xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c1024 = arith.constant 1024 : index
    %true = arith.constant true
    gpu.launch_func @k::@escapes blocks in (%c1, %c1, %c1) threads in (%c1024, %c1, %c1)
        args(%out : memref<1024xf32>, %true : i1)
    gpu.launch_func @k::@warps blocks in (%c2, %c1, %c1) threads in (%c64, %c1, %c1) args(%warps : memref<128xf32>)
    return
  }

  // A kernel written in place (gpu.launch, outlined for the CPU): async, with a workgroup and a private
  // attribution across a barrier; x[64b + t] = x[64b + 63 - t] + x[64b + t] over four blocks.
  func.func @run_launch(%x: memref<256xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %t0 = gpu.wait async
    %t = gpu.launch async [%t0] blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) workgroup(%w : memref<64xf32, #gpu.address_space<workgroup>>) private(%p : memref<1xf32, #gpu.address_space<private>>) {
      %c0 = arith.constant 0 : index
      %c63 = arith.constant 63 : index
      %base = arith.muli %bx, %sx : index
      %i = arith.addi %base, %tx : index
      %v = memref.load %x[%i] : memref<256xf32>
      memref.store %v, %p[%c0] : memref<1xf32, #gpu.address_space<private>>
      memref.store %v, %w[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %r = arith.subi %c63, %tx : index
      %u = memref.load %w[%r] : memref<64xf32, #gpu.address_space<workgroup>>
      %own = memref.load %p[%c0] : memref<1xf32, #gpu.address_space<private>>
      %sum = arith.addf %u, %own : f32
      memref.store %sum, %x[%i] : memref<256xf32>
      gpu.terminator
    }
    gpu.wait [%t]
    return
  }

  func.func @run_halving(%in: memref<256xf32>, %sums: memref<2xf32>, %levels: memref<256xi32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c128 = arith.constant 128 : index
    gpu.launch_func @k::@halving blocks in (%c2, %c1, %c1) threads in (%c128, %c1, %c1)
        args(%in : memref<256xf32>, %sums : memref<2xf32>, %levels : memref<256xi32>)
    return
  }

  func.func @run_viafunction(%x: memref<128xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @k::@viafunction blocks in (%c2, %c1, %c1) threads in (%c64, %c1, %c1) args(%x : memref<128xf32>)
    return
  }

  func.func @run_carried(%out: memref<192xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @k::@carried blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%out : memref<192xf32>)
    return
  }
}
