// RUN: gpu-translate --split-input-file --verify-diagnostics %s

// Rules of the memref ops that upstream's verifier holds and mgpu once let through: an access's or an
// allocation's alignment is a positive power of 2 of type i64.

gpu.module @gather {
  gpu.func @load_align_three(%buf: memref<16xi32>, %at: index) kernel {
    // expected-error @below {{Invalid alignment of memref.load (must be a positive power of 2, an i64): 3 : i64}}
    %v = memref.load %buf[%at] {alignment = 3} : memref<16xi32>
    gpu.return
  }
}

// -----

gpu.module @gather {
  gpu.func @load_align_narrow(%buf: memref<16xi32>, %at: index) kernel {
    // expected-error @below {{Invalid alignment of memref.load (must be a positive power of 2, an i64): 8 : i16}}
    %v = memref.load %buf[%at] {alignment = 8 : i16} : memref<16xi32>
    gpu.return
  }
}

// -----

gpu.module @scatter {
  gpu.func @store_align_zero(%buf: memref<16xi32>, %at: index, %v: i32) kernel {
    // expected-error @below {{Invalid alignment of memref.store (must be a positive power of 2, an i64): 0 : i64}}
    memref.store %v, %buf[%at] {alignment = 0} : memref<16xi32>
    gpu.return
  }
}

// -----

gpu.module @scatter {
  gpu.func @store_align_negative(%buf: memref<16xi32>, %at: index, %v: i32) kernel {
    // expected-error @below {{Invalid alignment of memref.store (must be a positive power of 2, an i64): -16 : i64}}
    memref.store %v, %buf[%at] {alignment = -16} : memref<16xi32>
    gpu.return
  }
}

// -----

gpu.module @scratch {
  gpu.func @alloca_align_twelve() kernel {
    // expected-error @below {{Invalid alignment of memref.alloca (must be a positive power of 2, an i64): 12 : i64}}
    %tmp = memref.alloca() {alignment = 12} : memref<3xf64>
    gpu.return
  }
}

// -----

// Powers of 2 of any size are what upstream takes.
gpu.module @aligned {
  gpu.func @fine(%buf: memref<16xi32>, %at: index) kernel {
    %v = memref.load %buf[%at] {alignment = 1} : memref<16xi32>
    memref.store %v, %buf[%at] {alignment = 1073741824} : memref<16xi32>
    %tmp = memref.alloca() {alignment = 64} : memref<3xf64>
    gpu.return
  }
}

