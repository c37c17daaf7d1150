// RUN: gpu-translate --split-input-file --verify-diagnostics %s

// The rules of gpu.all_reduce and its gpu.yield, each reported where the op is.

gpu.module @k {
  gpu.func @f(%x: f32) kernel {
    // expected-error @below {{Invalid gpu.all_reduce (must have either an op or a body, not neither)}}
    %r = gpu.all_reduce %x {} : (f32) -> f32
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%x: f32) kernel {
    // expected-error @below {{Invalid gpu.all_reduce (must have either an op or a body, not both)}}
    %r = gpu.all_reduce add %x {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      gpu.yield %s : f32
    } : (f32) -> f32
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%x: f32) kernel {
    // expected-error @below {{Invalid xor of gpu.all_reduce (must reduce integers): f32}}
    %r = gpu.all_reduce xor %x {} : (f32) -> f32
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%x: i32) kernel {
    // expected-error @below {{Invalid maximumf of gpu.all_reduce (must reduce floats): i32}}
    %r = gpu.all_reduce maximumf %x {} : (i32) -> i32
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%x: index) kernel {
    // expected-error @below {{Invalid operand of gpu.all_reduce (must be an integer or float): index}}
    %r = gpu.all_reduce add %x {} : (index) -> index
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%x: f32) kernel {
    // expected-error @below {{Invalid body of gpu.all_reduce (must have two arguments of type f32): 1 arguments [f32]}}
    %r = gpu.all_reduce %x {
    ^bb0(%a: f32):
      gpu.yield %a : f32
    } : (f32) -> f32
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%x: f32) kernel {
    %r = gpu.all_reduce %x {
    ^bb0(%a: f32, %b: f32):
      %i = arith.fptosi %a : f32 to i32
      // expected-error @below {{Invalid gpu.yield of gpu.all_reduce (must yield one f32): [i32]}}
      gpu.yield %i : i32
    } : (f32) -> f32
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%x: f32, %c: i1) kernel {
    %r = scf.if %c -> f32 {
      // expected-error @below {{Invalid gpu.yield (must end the body of gpu.all_reduce): scf.if}}
      gpu.yield %x : f32
    } else {
      scf.yield %x : f32
    }
    gpu.return
  }
}

// -----

func.func @host(%x: i32) -> i32 {
  // expected-error @below {{Invalid gpu.all_reduce (must be inside a function of a gpu.module or a gpu.launch): host code}}
  %r = gpu.all_reduce add %x {} : (i32) -> i32
  return %r : i32
}

// -----

gpu.module @k {
  gpu.func @f(%x: f32) kernel {
    // expected-error @below {{Invalid body of gpu.all_reduce (must end with gpu.yield): test.end}}
    %r = gpu.all_reduce %x {
    ^bb0(%a: f32, %b: f32):
      "test.end"(%a) : (f32) -> ()
    } : (f32) -> f32
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%x: f32) kernel {
    // expected-error @below {{Invalid regions of gpu.all_reduce (must be one, empty or the body): 0}}
    %r = "gpu.all_reduce"(%x) <{op = #gpu<all_reduce_op add>}> : (f32) -> f32
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%x: i32, %cap: i32) kernel {
    %capped = arith.addi %cap, %cap : i32
    %r = gpu.all_reduce %x {
    ^bb0(%a: i32, %b: i32):
      %m = arith.maxsi %a, %b : i32
      // expected-error @below {{Invalid operand (must be defined inside the gpu.all_reduce that holds its use, which is isolated from above): result #0 of arith.addi}}
      %c = arith.minsi %m, %capped : i32
      gpu.yield %c : i32
    } : (i32) -> i32
    gpu.return
  }
}
