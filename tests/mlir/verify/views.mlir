// RUN: gpu-translate --split-input-file --verify-diagnostics %s

// The rules of the memref views, each reported where the op is.

gpu.module @k {
  gpu.func @f(%a: memref<16x16xf32>, %i: index) kernel {
    // expected-error @below {{Invalid slice of memref.subview along dimension 1 (must stay within its 16 elements): reaches 16}}
    %s = memref.subview %a[%i, 2] [4, 8] [1, 2] : memref<16x16xf32> to memref<4x8xf32, strided<[16, 2], offset: ?>>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%a: memref<16x16xf32>, %i: index) kernel {
    // expected-error @below {{Invalid result type of memref.subview (must be memref<4x4xf32, strided<[16, 1], offset: ?>> or it without dimensions of size 1): memref<4x4xf32, strided<[16, 1], offset: 16>>}}
    %s = memref.subview %a[%i, 0] [4, 4] [1, 1] : memref<16x16xf32> to memref<4x4xf32, strided<[16, 1], offset: 16>>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%a: memref<16x16xf32>) kernel {
    // expected-error @below {{Invalid result type of memref.subview (must be memref<2x16xf32, strided<[16, 1], offset: 48>> or it without dimensions of size 1): memref<32xf32, strided<[1], offset: 48>>}}
    %s = memref.subview %a[3, 0] [2, 16] [1, 1] : memref<16x16xf32> to memref<32xf32, strided<[1], offset: 48>>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%a: memref<16x16xf32>) kernel {
    // expected-error @below {{Invalid static_sizes of memref.subview (must be one entry per dimension of the source, 2): array<i64: 4>}}
    %s = "memref.subview"(%a) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 0, 0>, static_sizes = array<i64: 4>, static_strides = array<i64: 1, 1>}> : (memref<16x16xf32>) -> memref<4xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%a: memref<16xf32>) kernel {
    // expected-error @below {{Invalid types of memref.cast (must have the same rank, element type and memory space, and sizes, strides and offset that agree where both are known): memref<16xf32> to memref<8xf32>}}
    %c = memref.cast %a : memref<16xf32> to memref<8xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%a: memref<4x4xf32>) kernel {
    // expected-error @below {{Invalid types of memref.collapse_shape (must be memrefs of one element type and memory space, each dimension of the smaller rank the product of its group): memref<4x4xf32> into memref<15xf32>}}
    %c = memref.collapse_shape %a [[0, 1]] : memref<4x4xf32> into memref<15xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%a: memref<4x4x2xf32>) kernel {
    // expected-error @below {{Invalid reassociation of memref.collapse_shape (must be groups of consecutive dimensions of memref<4x4x2xf32> from 0, as i64): [[0, 2], [1]]}}
    %c = memref.collapse_shape %a [[0, 2], [1]] : memref<4x4x2xf32> into memref<8x4xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%a: memref<16xf32>) kernel {
    // expected-error @below {{Invalid output_shape of memref.expand_shape (must be the result's sizes, a value where a size is ?): array<i64: 2, 8>}}
    %e = memref.expand_shape %a [[0, 1]] output_shape [2, 8] : memref<16xf32> into memref<4x4xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%a: memref<16x16xf32>) kernel {
    // expected-error @below {{Invalid operandSegmentSizes of memref.subview (must be [1, offsets, sizes, strides], adding up to the 1 operands): array<i32: 1, 1, 0, 0>}}
    %s = "memref.subview"(%a) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, static_offsets = array<i64: -9223372036854775808, 0>, static_sizes = array<i64: 4, 4>, static_strides = array<i64: 1, 1>}> : (memref<16x16xf32>) -> memref<4x4xf32, strided<[16, 1], offset: ?>>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%a: memref<16x16xf32>) kernel {
    // expected-error @below {{Invalid offset of memref.subview along dimension 0 (must be below its 16 elements): 16}}
    %s = memref.subview %a[16, 0] [0, 4] [1, 1] : memref<16x16xf32> to memref<0x4xf32, strided<[16, 1], offset: 256>>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%a: memref<16x16xf32>) kernel {
    // expected-error @below {{Invalid result type of memref.subview (must be memref<1x16xf32, strided<[16, 1], offset: 48>> or it without dimensions of size 1): memref<1x16xf32, strided<[999, 1], offset: 48>>}}
    %s = memref.subview %a[3, 0] [1, 16] [1, 1] : memref<16x16xf32> to memref<1x16xf32, strided<[999, 1], offset: 48>>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%a: memref<16xf32>, %n: index) kernel {
    // expected-error @below {{Invalid types of memref.expand_shape (must be memrefs of one element type and memory space, each dimension of the smaller rank the product of its group): memref<16xf32> into memref<?x4xf32>}}
    %e = memref.expand_shape %a [[0, 1]] output_shape [%n, 4] : memref<16xf32> into memref<?x4xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%a: memref<16xf32>, %n: index) kernel {
    // expected-error @below {{Invalid output_shape of memref.expand_shape (must be the result's sizes, a value where a size is ?): array<i64: -9223372036854775808, 4>}}
    %e = memref.expand_shape %a [[0, 1]] output_shape [%n, 4] : memref<16xf32> into memref<4x4xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%a: memref<16x16xf32>) kernel {
    // expected-error @below {{Invalid reassociation of memref.collapse_shape (must be groups of consecutive dimensions of memref<16x16xf32> from 0, as i64): [[0, 1, 2]]}}
    %c = memref.collapse_shape %a [[0, 1, 2]] : memref<16x16xf32> into memref<256xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%a: memref<4x8xf32, strided<[16, 1], offset: ?>>) kernel {
    // expected-error @below {{Invalid memref.collapse_shape of memref<4x8xf32, strided<[16, 1], offset: ?>> (must collapse only dimensions that are contiguous in memory)}}
    %c = memref.collapse_shape %a [[0, 1]] : memref<4x8xf32, strided<[16, 1], offset: ?>> into memref<32xf32, strided<[1], offset: ?>>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%a: memref<16xf32, strided<[2]>>) kernel {
    // expected-error @below {{Invalid result layout of memref.expand_shape (must be strided<[8, 2]>, from the source's): memref<4x4xf32>}}
    %e = memref.expand_shape %a [[0, 1]] output_shape [4, 4] : memref<16xf32, strided<[2]>> into memref<4x4xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%a: memref<256xf32>) kernel {
    // expected-error @below {{Invalid result type of memref.reinterpret_cast (must have the offset given, 1): memref<16x16xf32, strided<[16, 1]>>}}
    %v = memref.reinterpret_cast %a to offset: [1], sizes: [16, 16], strides: [16, 1] : memref<256xf32> to memref<16x16xf32, strided<[16, 1]>>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%a: memref<256xf32>, %n: index) kernel {
    // expected-error @below {{Invalid result type of memref.reinterpret_cast (must have the size given along dimension 0, a value (? in the type)): memref<16xf32>}}
    %v = memref.reinterpret_cast %a to offset: [0], sizes: [%n], strides: [1] : memref<256xf32> to memref<16xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%a: memref<256xf32>) kernel {
    // expected-error @below {{Invalid result type of memref.reinterpret_cast (must be in the source's memory space, the default): memref<16xf32, 3>}}
    %v = memref.reinterpret_cast %a to offset: [0], sizes: [16], strides: [1] : memref<256xf32> to memref<16xf32, 3>
    gpu.return
  }
}

// -----

// A source of the identity map's layout (strided<[1]>) gives the identity layout, as upstream computes it;
// the strides written out are not it.
gpu.module @k {
  gpu.func @f(%a: memref<16xf32, strided<[1]>>) kernel {
    // expected-error @below {{Invalid result layout of memref.expand_shape (must be the identity, from the source's): memref<4x4xf32, strided<[4, 1]>>}}
    %e = memref.expand_shape %a [[0, 1]] output_shape [4, 4] : memref<16xf32, strided<[1]>> into memref<4x4xf32, strided<[4, 1]>>
    gpu.return
  }
}
