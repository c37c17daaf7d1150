// What the build runs gpu-translate on to record the classes it loads (see CdsTraining): one of each
// kind of op, type and attribute that a typical input has.
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target<chip = "sm_90">, bin = "\00\01NV">,
                       #gpu.object<#rocdl.target<chip = "gfx90a">, "AMD">]
  gpu.binary @fat <#gpu.runtime_select> [
    #gpu.object<#nvvm.target<chip = "sm_90">, bin = "\00">,
    #gpu.object<#nvvm.target<chip = "sm_80">, properties = {O = 3 : i32}, assembly = ".version 8.0">,
    #gpu.object<#cpu.target, "ELF">
  ]

  llvm.func @loop(%p: !llvm.ptr, %f: f32, %n: i64) {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c1 = llvm.mlir.constant(1 : i64) : i64
    %c64 = llvm.mlir.constant(64 : i64) : i64
    %z = llvm.mlir.zero : !llvm.ptr
    %slot = llvm.alloca %c1 x i64 : (i64) -> !llvm.ptr
    llvm.store %c0, %slot : i64, !llvm.ptr
    llvm.br ^head(%c0 : i64)
  ^head(%i: i64):
    %done = llvm.icmp "sge" %i, %n : i64
    llvm.cond_br %done, ^exit, ^body
  ^body:
    gpu.launch_func @kernels::@scale blocks in (%c64, %c1, %c1) threads in (%c64, %c1, %c1) : i64
        args(%p : !llvm.ptr, %f : f32, %i : i64)
    %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %v = llvm.load %slot : !llvm.ptr -> i64
    %w = llvm.add %v, %c1 : i64
    llvm.store %w, %slot : i64, !llvm.ptr
    %next = llvm.add %i, %c1 : i64
    llvm.br ^head(%next : i64)
  ^exit:
    llvm.call @helper(%z) : (!llvm.ptr) -> ()
    llvm.return
  }

  // A second launch of a kernel goes through a launch stub: sizes known at run time, one passed twice.
  llvm.func @helper(%p: !llvm.ptr) {
    %c1 = llvm.mlir.constant(1 : i64) : i64
    %two = llvm.mlir.constant(2.0 : f32) : f32
    %n = llvm.load %p : !llvm.ptr -> i64
    gpu.launch_func @kernels::@scale blocks in (%n, %n, %c1) threads in (%c1, %c1, %c1) : i64
        args(%p : !llvm.ptr, %two : f32, %n : i64)
    llvm.return
  }

  func.func @memory(%a: f32, %h: memref<256xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %n = arith.constant 256 : i32
    %m = arith.muli %n, %n : i32
    %big = arith.cmpi sgt, %m, %n : i32
    cf.cond_br %big, ^run, ^done
  ^run:
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<256xf32>
    %t2 = gpu.memcpy async [%t1] %d, %h : memref<256xf32>, memref<256xf32>
    %t3 = gpu.memset async [%t2] %d, %a : memref<256xf32>, f32
    %t4 = gpu.launch_func async [%t3] @fat::@axpy blocks in (%c4, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%a : f32, %d : memref<256xf32>, %n : i32)
    %t5 = gpu.memcpy async [%t4] %h, %d : memref<256xf32>, memref<256xf32>
    %t6 = gpu.dealloc async [%t5] %d : memref<256xf32>
    gpu.wait [%t6]
    cf.br ^done
  ^done:
    %r = func.call @id(%c1) : (index) -> index
    return
  }

  func.func @id(%x: index) -> index {
    return %x : index
  }
}
