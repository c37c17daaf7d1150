// RUN: gpu-translate --split-input-file --verify-diagnostics %s

// Each location form names the same kind of bad op; a form that resolved to the wrong line would leave
// one error unexpected and one expectation unmet.

func.func @below(%n: index) {
  // expected-error @below {{Invalid gpu.alloc sizes (must give one index per dynamic dimension, 2): 1 sizes}}
  %a = gpu.alloc(%n) : memref<?x?xf32>
  return
}

// -----

func.func @below_skips_annotations(%d: memref<8xi64>, %v: f64) {
  // expected-error @below {{Invalid gpu.memset value (must have the element type i64): f64}}
  // expected-error @below {{Invalid gpu.memset element type (must be 16 or 32 bits wide): i64}}
  gpu.memset %d, %v : memref<8xi64>, f64
  return
}

// -----

func.func @above(%n: index) {
  %a = gpu.alloc(%n) : memref<?x?x?xi32>
  // expected-error @above {{Invalid gpu.alloc sizes (must give one index per dynamic dimension, 3): 1 sizes}}
  return
}

// -----

func.func @above_skips_annotations(%d: memref<4xi64>, %v: f64) {
  gpu.memset %d, %v : memref<4xi64>, f64
  // expected-error @above {{Invalid gpu.memset element type (must be 16 or 32 bits wide): i64}}
  // expected-error @above {{Invalid gpu.memset value (must have the element type i64): f64}}
  return
}

// -----

func.func @minus(%n: index) {
  %a = gpu.alloc(%n) : memref<8xi64>
  %b = gpu.alloc() : memref<8xi64>

  // expected-error @-3 {{Invalid gpu.alloc sizes (must give one index per dynamic dimension, 0): 1 sizes}}
  return
}

// -----

func.func @plus_and_same_line(%n: index) {
  // expected-error @+2 {{Invalid gpu.alloc sizes (must give one index per dynamic dimension, 1): 0 sizes}}
  %ok = gpu.alloc(%n) : memref<?xf32>
  %a = gpu.alloc() : memref<?xf32>
  %b = gpu.alloc() : memref<?xf16> // expected-error {{Invalid gpu.alloc sizes (must give one index per dynamic dimension, 1): 0 sizes}}
  return
}
