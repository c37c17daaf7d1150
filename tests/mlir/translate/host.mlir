// RUN: gpu-translate %s | FileCheck %s

// Host code: func, arith, cf and llvm ops, block arguments as phis, memref arguments expanded.

module {
  // CHECK-LABEL: define i64 @arith(i32 %0, i32 %1, i64 %2)
  func.func @arith(%a: i32, %b: i32, %i: index) -> i64 {
    // CHECK: %[[S:.*]] = add i32 %0, %1
    %0 = arith.addi %a, %b : i32
    // CHECK: %[[M:.*]] = mul i32 %[[S]], %1
    %1 = arith.muli %0, %b : i32
    // CHECK: %[[C:.*]] = icmp slt i32 %[[M]], %0
    %c = arith.cmpi slt, %1, %a : i32
    // CHECK: %[[X:.*]] = select i1 %[[C]], i32 %[[M]], i32 %0
    %s = arith.select %c, %1, %a : i32
    // CHECK: %[[W:.*]] = sext i32 %[[X]] to i64
    %w = arith.extsi %s : i32 to i64
    %ii = arith.index_cast %i : index to i64
    %y = arith.addi %w, %ii : i64
    %t = arith.constant true
    // CHECK: br i1 true, label %[[B1:.*]], label %[[B2:.*]]
    cf.cond_br %t, ^bb1(%y : i64), ^bb2(%w : i64)
  ^bb1(%v: i64):
    cf.br ^bb2(%v : i64)
  ^bb2(%r: i64):
    // CHECK: phi i64 [ %[[W]], %{{.*}} ], [ %{{.*}}, %[[B1]] ]
    return %r : i64
  }

  // Values used before their block in program order are translated in dominance order.
  // CHECK-LABEL: define i64 @forward(i64 %0)
  func.func @forward(%n: i64) -> i64 {
    cf.br ^bb2
  ^bb1:
    // CHECK: ret i64 %[[X:.*]]
    return %x : i64
  ^bb2:
    // CHECK: %[[X]] = add i64 %0, %0
    %x = arith.addi %n, %n : i64
    cf.br ^bb1
  }

  // CHECK-LABEL: define { i32, float } @pair(i32 %0, float %1)
  func.func @pair(%a: i32, %b: f32) -> (i32, f32) {
    // CHECK: insertvalue { i32, float } undef, i32 %0, 0
    return %a, %b : i32, f32
  }

  // A memref argument expands to allocated, aligned, offset, sizes and strides.
  // CHECK-LABEL: define i32 @call_pair(ptr %0, ptr %1, i64 %2, i64 %3, i64 %4)
  func.func @call_pair(%m: memref<?xf32>) -> i32 {
    %c = arith.constant 3 : i32
    %f = arith.constant 0.5 : f32
    // CHECK: %[[P:.*]] = call { i32, float } @pair(i32 3, float 5.000000e-01)
    // CHECK: extractvalue { i32, float } %[[P]], 0
    %r:2 = func.call @pair(%c, %f) : (i32, f32) -> (i32, f32)
    return %r#0 : i32
  }

  // CHECK: declare ptr @malloc(i64)
  llvm.func @malloc(i64) -> !llvm.ptr
  // CHECK-LABEL: define internal i64 @helper(i64 %0)
  llvm.func internal @helper(%v: i64) -> i64 {
    llvm.return %v : i64
  }

  // CHECK-LABEL: define i32 @llvm_ops(ptr %0, i64 %1)
  llvm.func @llvm_ops(%p: !llvm.ptr, %n: i64) -> i32 {
    %c = llvm.mlir.constant(42 : i32) : i32
    %z = llvm.mlir.zero : !llvm.ptr
    // CHECK: %[[A:.*]] = alloca i32, i64 %1, align 4
    %a = llvm.alloca %n x i32 {alignment = 4 : i64} : (i64) -> !llvm.ptr
    // CHECK: store i32 42, ptr %[[A]], align 4
    llvm.store %c, %a {alignment = 4 : i64} : i32, !llvm.ptr
    // CHECK: %[[L:.*]] = load i32, ptr %[[A]], align 4
    %l = llvm.load %a {alignment = 4 : i64} : !llvm.ptr -> i32
    // CHECK: getelementptr inbounds { i32, float }, ptr %0, i64 %1, i32 1
    %g = llvm.getelementptr inbounds %p[%n, 1] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(i32, f32)>
    // CHECK: %[[M:.*]] = call ptr @malloc(i64 %1)
    %m = llvm.call @malloc(%n) : (i64) -> !llvm.ptr
    // CHECK: icmp eq ptr %[[M]], null
    %q = llvm.icmp "eq" %m, %z : !llvm.ptr
    %sum = llvm.add %l, %c : i32
    llvm.cond_br %q, ^bb1, ^bb2(%sum : i32)
  ^bb1:
    llvm.br ^bb2(%c : i32)
  ^bb2(%r: i32):
    // CHECK: phi i32
    llvm.return %r : i32
  }
}
