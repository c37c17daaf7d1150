module attributes {gpu.container_module} {
  gpu.module @floats [#nvvm.target<chip = "sm_90">, #cpu.target] {
    gpu.func @floats(%p: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %x = memref.load %p[%c0] : memref<4xf32>
      %a = math.tan %x : f32
      %b = math.asin %a : f32
      %c = math.acos %b : f32
      %d = math.atan %c : f32
      %e = math.sinh %d : f32
      %f = math.cosh %e : f32
      %g = math.asinh %f : f32
      %h = math.acosh %g : f32
      %i = math.atanh %h : f32
      %j = math.log10 %i : f32
      %k = math.log1p %j : f32
      %l = math.expm1 %k : f32
      %m = math.cbrt %l : f32
      %n = math.erfc %m : f32
      %o = math.atan2 %n, %x fastmath<fast> : f32
      memref.store %o, %p[%c0] : memref<4xf32>
      gpu.return
    }
  }
}
