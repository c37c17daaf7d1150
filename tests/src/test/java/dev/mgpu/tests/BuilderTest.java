package dev.mgpu.tests;

import dev.mgpu.dialect.gpu.AllocOp;
import dev.mgpu.dialect.gpu.LaunchFuncOp;
import dev.mgpu.dialect.gpu.ObjectAttr;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mgpu.codegen.EmitKind;
import dev.mgpu.codegen.Mgpu;
import dev.mgpu.dialect.builtin.Builtin;
import dev.mgpu.dialect.func.Func;
import dev.mgpu.dialect.OpBuilder;
import dev.mgpu.ir.Attribute;
import dev.mgpu.dialect.gpu.GpuTarget;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import dev.mgpu.mlir.MlirParser;
import dev.mgpu.mlir.MlirPrinter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A module built through the Java API verifies, prints as expected, reads back equal, and translates. */
class BuilderTest {
    @Test
    void buildPrintParseTranslate() {
        Location loc = Location.of("gen.java", 1, 1);
        Builtin.ModuleOp m = Builtin.ModuleOp.create(loc);
        m.setGpuContainer();
        OpBuilder top = OpBuilder.atEnd(m.body(), loc);
        top.binary("kernels", null, List.of(ObjectAttr.of(GpuTarget.NVVMTarget.of("sm_90"),
                new byte[] {0x7F, 'E', 'L', 'F', 0})));
        Type.MemRefType buf = new Type.MemRefType(new long[] {256}, Type.F32, null, null);
        Func.FuncOp f = top.func("run", new Type.FunctionType(List.of(Type.F32), List.of()));
        OpBuilder b = OpBuilder.atEnd(f.body(), loc);
        Value one = b.constant(1, Type.INDEX);
        Value n = b.constant(256, Type.INDEX);
        Value t0 = b.await(List.of(), true);
        AllocOp a = b.alloc(buf, List.of(t0), true, List.of(), false);
        Value t1 = b.memset(a.memref(), f.body().argument(0), List.of(a.asyncToken()), true);
        LaunchFuncOp l = b.launch("kernels", "fill", List.of(t1), true, new Value[] {one, one, one},
                new Value[] {n, one, one}, null, null, List.of(f.body().argument(0), a.memref()), null);
        Value t2 = b.dealloc(a.memref(), List.of(l.asyncToken()), true);
        b.await(List.of(t2), false);
        b.funcReturn(List.of());

        assertEquals(List.of(), Mgpu.verify(m.op()));
        String text = MlirPrinter.print(m.op());
        assertEquals("module attributes {gpu.container_module} {\n"
                + "  gpu.binary @kernels [#gpu.object<#nvvm.target<chip = \"sm_90\">, \"\\7FELF\\00\">]\n"
                + "  func.func @run(%arg0: f32) {\n"
                + "    %c1 = arith.constant 1 : index\n"
                + "    %c256 = arith.constant 256 : index\n"
                + "    %0 = gpu.wait async\n"
                + "    %memref, %asyncToken = gpu.alloc async [%0] () : memref<256xf32>\n"
                + "    %1 = gpu.memset async [%asyncToken] %memref, %arg0 : memref<256xf32>, f32\n"
                + "    %2 = gpu.launch_func async [%1] @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1)"
                + " args(%arg0 : f32, %memref : memref<256xf32>)\n"
                + "    %3 = gpu.dealloc async [%2] %memref : memref<256xf32>\n"
                + "    gpu.wait [%3]\n"
                + "    return\n"
                + "  }\n"
                + "}\n", text);
        Operation reparsed = MlirParser.parse(text, "printed");
        assertEquals(text, MlirPrinter.print(reparsed));
        String ir = new String(Mgpu.emit(m.op(), EmitKind.LLVM, Mgpu.Options.DEFAULT), StandardCharsets.UTF_8);
        assertTrue(ir.contains("call void @mgpuMemset32("), ir);
        assertTrue(ir.contains("@kernels_bin_cst = internal constant [5 x i8] c\"\\7FELF\\00\", align 8"), ir);
    }
}
