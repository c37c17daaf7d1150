// RUN: gpu-translate --split-input-file --verify-diagnostics %s

// Rules of the memref ops that upstream's verifier holds and mgpu once let through: an access's or an
// allocation's alignment is a positive power of 2 of type i64, and memref.dim asks a memref that has a
// dimension (translation used to be the first to see a 0-D one).

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

gpu.module @shape {
  gpu.func @dim_of_scalar(%cell: memref<i64>, %out: memref<1xindex>) kernel {
    %zero = arith.constant 0 : index
    // expected-error @below {{Invalid memref of memref.dim (must be unranked or of rank 1 or more): memref<i64>}}
    %d = memref.dim %cell, %zero : memref<i64>
    memref.store %d, %out[%zero] : memref<1xindex>
    gpu.return
  }
}
