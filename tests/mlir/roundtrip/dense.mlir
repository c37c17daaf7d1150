// RUN: gpu-translate --emit=mlir %s | FileCheck %s
// RUN: gpu-translate --emit=mlir %s | gpu-translate --emit=mlir - | FileCheck %s
// RUN: gpu-translate --emit=mlir --mlir-print-op-generic %s | gpu-translate --emit=mlir - | FileCheck %s
// RUN: gpu-translate --emit=mlir --mlir-print-op-generic %s | FileCheck %s --check-prefix=GENERIC
// RUN: gpu-translate --emit=mlir %s | mlir-opt-22 | gpu-translate --emit=mlir - | FileCheck %s

// memref.global and memref.get_global, with dense<...> elements printed as upstream prints them: floats with
// six decimals, lists nested as the shape, one element for a splat (even when written out), true and false
// for i1, no elements as dense<>, and more than 100 elements as a hexadecimal string of their little-endian
// bytes (of i1, packed bits). memref<0x4xf32> has a zero dimension, not 0x4 (the lexer reads a hexadecimal
// number there).

// CHECK: memref.global "private" constant @host_table : memref<2x2xf32> = dense<{{\[}}[1.500000e+00, -2.000000e+00], [1.000000e-01, 4.000000e+00]]>
// CHECK: memref.global "private" constant @table : memref<4xf32> = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> {alignment = 16 : i64}
// CHECK: memref.global "private" constant @ones : memref<3xi32> = dense<1>
// CHECK: memref.global "private" constant @same : memref<2xf64> = dense<2.500000e-01>
// CHECK: memref.global @scratch : memref<8xf32> = uninitialized
// CHECK: memref.global @flags : memref<2xi1> = dense<[true, false]>
// CHECK: memref.global @ext : memref<4xi8>{{$}}
// CHECK: memref.global "private" @big : memref<101xi16> = dense<"0x010002000300
// CHECK-SAME: 6400650{{0}}">
// CHECK: memref.global "private" constant @nan : memref<2xf32> = dense<[0x7FC00000, -0.000000e+00]>
// CHECK: memref.global "private" constant @half : memref<2xbf16> = dense<[1.000000e+00, -3.000000e+00]>
// CHECK: memref.global "private" constant @none : memref<0x4xf32> = dense<>
// CHECK: memref.global "private" constant @bits : memref<3xi1> = dense<[true, false, true]>
// CHECK: memref.global "private" constant @allset : memref<9xi1> = dense<true>
// CHECK: memref.global "private" constant @strided : memref<2x3xf32, strided<[3, 1]>> = dense<0.000000e+00>
// CHECK: %{{.*}} = memref.get_global @table : memref<4xf32>
// CHECK: %{{.*}} = memref.get_global @host_table : memref<2x2xf32>

// GENERIC: "memref.global"() <{constant, initial_value = dense<1> : tensor<3xi32>, sym_name = "ones", sym_visibility = "private", type = memref<3xi32>}> : () -> ()
// GENERIC: "memref.global"() <{initial_value, sym_name = "scratch", type = memref<8xf32>}> : () -> ()
// GENERIC: "memref.get_global"() <{name = @table}> : () -> memref<4xf32>

module attributes {gpu.container_module} {
  memref.global "private" constant @host_table : memref<2x2xf32> = dense<[[1.5, -2.0], [0.1, 4.0]]>
  gpu.module @k {
    memref.global "private" constant @table : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]> {alignment = 16 : i64}
    memref.global "private" constant @ones : memref<3xi32> = dense<1>
    memref.global "private" constant @same : memref<2xf64> = dense<[0.25, 0.25]>
    memref.global @scratch : memref<8xf32> = uninitialized
    memref.global @flags : memref<2xi1> = dense<[true, false]>
    memref.global @ext : memref<4xi8>
    memref.global "private" @big : memref<101xi16> = dense<"0x0100020003000400050006000700080009000A000B000C000D000E000F0010001100120013001400150016001700180019001A001B001C001D001E001F0020002100220023002400250026002700280029002A002B002C002D002E002F0030003100320033003400350036003700380039003A003B003C003D003E003F0040004100420043004400450046004700480049004A004B004C004D004E004F0050005100520053005400550056005700580059005A005B005C005D005E005F00600061006200630064006500">
    memref.global "private" constant @nan : memref<2xf32> = dense<[0x7FC00000, -0.0]>
    memref.global "private" constant @half : memref<2xbf16> = dense<[1.0, -3.0]>
    memref.global "private" constant @none : memref<0x4xf32> = dense<>
    memref.global "private" constant @bits : memref<3xi1> = dense<"0x05">
    memref.global "private" constant @allset : memref<9xi1> = dense<"0xFF">
    memref.global "private" constant @strided : memref<2x3xf32, strided<[3, 1]>> = dense<0.0>
    gpu.func @f(%out: memref<4xf32>) kernel {
      %t = gpu.thread_id x
      %g = memref.get_global @table : memref<4xf32>
      %v = memref.load %g[%t] : memref<4xf32>
      memref.store %v, %out[%t] : memref<4xf32>
      gpu.return
    }
  }
  func.func @host() -> memref<2x2xf32> {
    %g = memref.get_global @host_table : memref<2x2xf32>
    return %g : memref<2x2xf32>
  }
}
