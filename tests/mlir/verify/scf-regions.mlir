// RUN: gpu-translate --split-input-file --verify-diagnostics %s

// The regions of scf ops as upstream verifies them: an scf.if region takes no arguments (the generic form
// could bring some in, and the custom form then printed them away), and values a region passes on that do
// not fit are the error of the op that receives them, where upstream reports them, not of its terminator.

gpu.module @branches {
  gpu.func @then_with_argument(%flag: i1) kernel {
    // expected-error @below {{Invalid region #0 of scf.if (must have no arguments): (i16)}}
    "scf.if"(%flag) ({
    ^bb0(%stray: i16):
      "scf.yield"() : () -> ()
    }, {
    }) : (i1) -> ()
    gpu.return
  }
}

// -----

gpu.module @branches {
  gpu.func @else_with_argument(%flag: i1) kernel {
    // expected-error @below {{Invalid region #1 of scf.if (must have no arguments): (f64)}}
    scf.if %flag {
    } else {
    ^bb0(%stray: f64):
      scf.yield
    }
    gpu.return
  }
}

// -----

gpu.module @branches {
  gpu.func @if_yields_wide(%flag: i1, %n: i8) kernel {
    // expected-error @below {{Invalid scf.if (must yield (i8)): (i16)}}
    %r = scf.if %flag -> i8 {
      %wide = arith.extsi %n : i8 to i16
      scf.yield %wide : i16
    } else {
      scf.yield %n : i8
    }
    gpu.return
  }
}

// -----

gpu.module @loops {
  gpu.func @for_yields_two(%n: index, %acc: f32) kernel {
    %zero = arith.constant 0 : index
    %one = arith.constant 1 : index
    // expected-error @below {{Invalid scf.for (must yield (f32)): (f32, f32)}}
    %sum = scf.for %i = %zero to %n step %one iter_args(%s = %acc) -> (f32) {
      scf.yield %s, %s : f32, f32
    }
    gpu.return
  }
}

// -----

gpu.module @loops {
  gpu.func @while_yields_index(%start: i32) kernel {
    // expected-error @below {{Invalid scf.while (must yield (i32)): (index)}}
    %last = scf.while (%v = %start) : (i32) -> i32 {
      %go = arith.constant false
      scf.condition(%go) %v : i32
    } do {
    ^bb0(%w: i32):
      %k = arith.index_cast %w : i32 to index
      scf.yield %k : index
    }
    gpu.return
  }
}

// -----

gpu.module @loops {
  gpu.func @while_passes_i64(%start: i32) kernel {
    // expected-error @below {{Invalid scf.while (must pass (i32) in its scf.condition): (i64)}}
    %last = scf.while (%v = %start) : (i32) -> i32 {
      %go = arith.constant false
      %wide = arith.extsi %v : i32 to i64
      scf.condition(%go) %wide : i64
    } do {
    ^bb0(%w: i32):
      scf.yield %w : i32
    }
    gpu.return
  }
}
