package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mgpu.codegen.KernelOptions;
import dev.mgpu.codegen.Mgpu;
import dev.mgpu.dialect.arith.Arith;
import dev.mgpu.dialect.arith.Casts;
import dev.mgpu.dialect.arith.Comparisons;
import dev.mgpu.dialect.builtin.Builtin;
import dev.mgpu.dialect.gpu.BinaryOp;
import dev.mgpu.dialect.gpu.DimensionOp;
import dev.mgpu.dialect.gpu.GpuFuncOp;
import dev.mgpu.dialect.gpu.GpuModuleOp;
import dev.mgpu.dialect.gpu.GpuTarget;
import dev.mgpu.dialect.gpu.ObjectAttr;
import dev.mgpu.dialect.gpu.ObjectFormat;
import dev.mgpu.dialect.math.MathDialect;
import dev.mgpu.dialect.memref.MemRef;
import dev.mgpu.dialect.scf.Scf;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Block;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import dev.mgpu.mlir.MlirPrinter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A code generator builds a kernel with the ops' Java builders, without MLIR text: the axpy kernel built
 * this way prints exactly as the kernel of examples/kernels/axpy.mlir does, and compiles to PTX, AMDGPU and CPU code in one
 * library call.
 */
class KernelBuilderTest {
    private static final Location LOC = Location.of("KernelBuilderTest.java", 1, 1);

    private static Value add(Block b, Operation op) {
        return b.append(op).result(0);
    }

    static Builtin.ModuleOp axpy() {
        Builtin.ModuleOp m = Builtin.ModuleOp.create(LOC);
        m.setGpuContainer();
        GpuModuleOp gm = GpuModuleOp.create(LOC, "axpy_kernels", new Attribute.ArrayAttr(List.of(
                GpuTarget.NVVMTarget.of("sm_90"), GpuTarget.NVVMTarget.of("sm_80"), GpuTarget.ROCDLTarget.of("gfx90a"),
                GpuTarget.CpuTarget.host())));
        gm.op().setAttr("offloadingHandler", new dev.mgpu.dialect.gpu.OffloadingHandlerAttr.RuntimeSelect());
        m.body().append(gm.op());
        Type.MemRefType vec = new Type.MemRefType(new long[] {1024}, Type.F32, null, null);
        GpuFuncOp f = GpuFuncOp.create(LOC, "axpy", new Type.FunctionType(List.of(Type.F32, vec, vec, Type.I32),
                List.of()), true, List.of(), List.of());
        gm.body().append(f.op());
        Block b = f.body();
        Value tid = add(b, DimensionOp.create(LOC, "thread_id", 0).op());
        Value bid = add(b, DimensionOp.create(LOC, "block_id", 0).op());
        Value bdim = add(b, DimensionOp.create(LOC, "block_dim", 0).op());
        Value base = add(b, Arith.BinaryOp.create(LOC, "muli", bid, bdim).op());
        Value i = add(b, Arith.BinaryOp.create(LOC, "addi", base, tid).op());
        Value n = add(b, Casts.CastOp.create(LOC, "index_cast", b.argument(3), Type.INDEX).op());
        Value in = add(b, Comparisons.CmpIOp.create(LOC, "slt", i, n).op());
        Scf.IfOp guard = Scf.IfOp.create(LOC, in, List.of(), false);
        b.append(guard.op());
        Block then = guard.thenRegion().entry();
        Value xv = add(then, MemRef.LoadOp.create(LOC, b.argument(1), List.of(i)).op());
        Value yv = add(then, MemRef.LoadOp.create(LOC, b.argument(2), List.of(i)).op());
        Value ax = add(then, Arith.BinaryOp.create(LOC, "mulf", b.argument(0), xv).op());
        Value r = add(then, Arith.BinaryOp.create(LOC, "addf", ax, yv).op());
        then.append(MemRef.StoreOp.create(LOC, r, b.argument(2), List.of(i)).op());
        then.append(Scf.YieldOp.create(LOC, List.of()).op());
        b.append(Operation.create("gpu.return", LOC, List.of(), List.of(), java.util.Map.of()));
        return m;
    }

    @Test
    void builtKernelPrintsAsTheExampleAndCompiles() throws Exception {
        Builtin.ModuleOp m = axpy();
        assertEquals(List.of(), Mgpu.verify(m.op()));
        Operation example = Mgpu.parse(Files.readAllBytes(TestPaths.root().resolve("examples/kernels/axpy.mlir")),
                "axpy.mlir");
        // The example's gpu.module, before its host function.
        String built = MlirPrinter.print(m.op());
        String module = built.substring(0, built.lastIndexOf('}'));
        assertTrue(MlirPrinter.print(example).startsWith(module), MlirPrinter.print(example) + "\n---\n" + module);

        Mgpu.compileKernels(m.op(), Mgpu.Options.DEFAULT.withKernels(KernelOptions.DEFAULT.withFormat(
                ObjectFormat.ASSEMBLY)));
        Operation binary = m.body().operations().get(0);
        assertEquals(BinaryOp.NAME, binary.name());
        BinaryOp bin = new BinaryOp(binary);
        assertEquals("axpy_kernels", bin.name());
        assertEquals(4, bin.objects().size());
        String sm90 = new String(bin.object(0).object().bytes(), StandardCharsets.UTF_8);
        assertTrue(sm90.contains(".target sm_90") && sm90.contains(".visible .entry axpy(")
                && sm90.contains("st.global.f32"), sm90);
        String sm80 = new String(bin.object(1).object().bytes(), StandardCharsets.UTF_8);
        assertTrue(sm80.contains(".target sm_80"), sm80);
        ObjectAttr amd = bin.object(2);
        assertEquals(ObjectFormat.ASSEMBLY, amd.format());
        String gcn = new String(amd.object().bytes(), StandardCharsets.UTF_8);
        assertTrue(gcn.contains(".amdgcn_target \"amdgcn-amd-amdhsa--gfx90a\"") && gcn.contains(".amdhsa_kernel axpy"),
                gcn);
        String cpu = new String(bin.object(3).object().bytes(), StandardCharsets.UTF_8);
        assertTrue(cpu.contains("\naxpy:") && cpu.contains(".globl\taxpy.mgpu_block"), cpu);
    }

    /**
     * The builders of the integer functions and float classes, and an attribution's attributes: what they
     * build verifies and prints in upstream's syntax.
     */
    @Test
    void mathAndAttributionAttributesBuildAsWritten() {
        Builtin.ModuleOp m = Builtin.ModuleOp.create(LOC);
        GpuModuleOp gm = GpuModuleOp.create(LOC, "k", new Attribute.ArrayAttr(List.of(GpuTarget.CpuTarget.host())));
        m.body().append(gm.op());
        Type.MemRefType out = new Type.MemRefType(new long[] {2}, Type.I32, null, null);
        Type.MemRefType shared = new Type.MemRefType(new long[] {8}, Type.F32, null,
                new dev.mgpu.dialect.gpu.AddressSpaceAttr("workgroup"));
        GpuFuncOp f = GpuFuncOp.create(LOC, "k", new Type.FunctionType(List.of(Type.F32, out), List.of()), true,
                List.of(shared), List.of());
        f.setAttributionAttrs(0, new Attribute.DictionaryAttr(java.util.Map.of(GpuFuncOp.ALIGN,
                Attribute.IntegerAttr.i64(32))));
        gm.body().append(f.op());
        Block b = f.body();
        Value nan = add(b, MathDialect.FunctionOp.create(LOC, "isnan", b.argument(0)).op());
        Value bits = add(b, Casts.CastOp.create(LOC, "extui", nan, Type.I32).op());
        Value ones = add(b, MathDialect.FunctionOp.create(LOC, "ctpop", bits).op());
        Value c0 = add(b, Arith.ConstantOp.integer(LOC, 0, Type.INDEX).op());
        b.append(MemRef.StoreOp.create(LOC, ones, b.argument(1), List.of(c0)).op());
        b.append(Operation.create("gpu.return", LOC, List.of(), List.of(), java.util.Map.of()));
        assertEquals(List.of(), Mgpu.verify(m.op()));
        assertEquals(32, f.attributionAlignment(0));
        String text = MlirPrinter.print(m.op());
        assertTrue(text.contains("workgroup(%arg2 : memref<8xf32, #gpu.address_space<workgroup>> {llvm.align = 32 : i64})")
                && text.contains("= math.isnan %arg0 : f32") && text.contains("= math.ctpop %"), text);
    }

    /**
     * gpu.all_reduce built both ways, by a named reduction and by a body that the code generator fills:
     * what they build verifies, prints in upstream's syntax and compiles for sm_90 and the CPU.
     */
    @Test
    void allReductionsBuildBothWays() {
        Builtin.ModuleOp m = Builtin.ModuleOp.create(LOC);
        m.setGpuContainer();
        GpuModuleOp gm = GpuModuleOp.create(LOC, "k", new Attribute.ArrayAttr(List.of(GpuTarget.NVVMTarget.of(
                "sm_90"), GpuTarget.CpuTarget.host())));
        m.body().append(gm.op());
        Type.MemRefType out = new Type.MemRefType(new long[] {2}, Type.I32, null, null);
        GpuFuncOp f = GpuFuncOp.create(LOC, "k", new Type.FunctionType(List.of(Type.I32, out), List.of()), true,
                List.of(), List.of());
        gm.body().append(f.op());
        Block b = f.body();
        Value sum = add(b, dev.mgpu.dialect.gpu.AllReduceOp.create(LOC, "add", b.argument(0), true).op());
        dev.mgpu.dialect.gpu.AllReduceOp most = dev.mgpu.dialect.gpu.AllReduceOp.createWithBody(LOC, b.argument(0),
                false);
        Block body = most.body();
        Value larger = add(body, Arith.BinaryOp.create(LOC, "maxsi", body.argument(0), body.argument(1)).op());
        body.append(dev.mgpu.dialect.gpu.AllReduceOp.yield(LOC, larger));
        Value max = add(b, most.op());
        Value c0 = add(b, Arith.ConstantOp.integer(LOC, 0, Type.INDEX).op());
        Value c1 = add(b, Arith.ConstantOp.integer(LOC, 1, Type.INDEX).op());
        b.append(MemRef.StoreOp.create(LOC, sum, b.argument(1), List.of(c0)).op());
        b.append(MemRef.StoreOp.create(LOC, max, b.argument(1), List.of(c1)).op());
        b.append(Operation.create("gpu.return", LOC, List.of(), List.of(), java.util.Map.of()));
        assertEquals(List.of(), Mgpu.verify(m.op()));
        assertEquals("add", new dev.mgpu.dialect.gpu.AllReduceOp(sum instanceof Value.OpResult r ? r.owner() : null)
                .kind());
        assertEquals(larger, most.yielded());
        String text = MlirPrinter.print(m.op());
        assertTrue(text.contains("= gpu.all_reduce add %arg0 uniform {\n      } : (i32) -> i32\n")
                && text.contains("= gpu.all_reduce %arg0 {\n      ^bb0(%arg2: i32, %arg3: i32):\n"
                + "        %2 = arith.maxsi %arg2, %arg3 : i32\n        gpu.yield %2 : i32\n      } : (i32) -> i32\n"),
                text);
        Mgpu.compileKernels(m.op(), Mgpu.Options.DEFAULT.withKernels(KernelOptions.DEFAULT.withFormat(
                ObjectFormat.ASSEMBLY)));
        BinaryOp bin = new BinaryOp(m.body().operations().get(0));
        String ptx = new String(bin.object(0).object().bytes(), StandardCharsets.UTF_8);
        assertEquals(20, ptx.split("shfl.sync.bfly.b32", -1).length - 1, ptx);
        assertEquals(4, ptx.split("bar.sync", -1).length - 1, ptx);
    }

    /**
     * memref.reinterpret_cast built with a static offset and with one a value gives: it verifies, prints in
     * upstream's syntax, and on sm_90 reads row 1, column 2 of the flat array seen as rows of 32 from its
     * element 3, element 37 (148 bytes in).
     */
    @Test
    void reinterpretCastsBuildAsWritten() {
        Builtin.ModuleOp m = Builtin.ModuleOp.create(LOC);
        m.setGpuContainer();
        GpuModuleOp gm = GpuModuleOp.create(LOC, "k", new Attribute.ArrayAttr(List.of(GpuTarget.NVVMTarget.of(
                "sm_90"))));
        m.body().append(gm.op());
        Type.MemRefType flat = new Type.MemRefType(new long[] {256}, Type.F32, null, null);
        GpuFuncOp f = GpuFuncOp.create(LOC, "k", new Type.FunctionType(List.of(flat, Type.INDEX), List.of()), true,
                List.of(), List.of());
        gm.body().append(f.op());
        Block b = f.body();
        Type.MemRefType rows = new Type.MemRefType(new long[] {8, 32}, Type.F32,
                new Attribute.StridedLayoutAttr(3, new long[] {32, 1}), null);
        Value v = add(b, dev.mgpu.dialect.memref.Views.ReinterpretCastOp.create(LOC, b.argument(0), 3L, List.of(8L,
                32L), List.of(32L, 1L), rows).op());
        Type.MemRefType moved = new Type.MemRefType(new long[] {4}, Type.F32,
                new Attribute.StridedLayoutAttr(Type.DYNAMIC, new long[] {1}), null);
        Value w = add(b, dev.mgpu.dialect.memref.Views.ReinterpretCastOp.create(LOC, b.argument(0), b.argument(1),
                List.of(4L), List.of(1L), moved).op());
        Value c1 = add(b, Arith.ConstantOp.integer(LOC, 1, Type.INDEX).op());
        Value c2 = add(b, Arith.ConstantOp.integer(LOC, 2, Type.INDEX).op());
        Value x = add(b, MemRef.LoadOp.create(LOC, v, List.of(c1, c2)).op());
        b.append(MemRef.StoreOp.create(LOC, x, w, List.of(c1)).op());
        b.append(Operation.create("gpu.return", LOC, List.of(), List.of(), java.util.Map.of()));
        assertEquals(List.of(), Mgpu.verify(m.op()));
        String text = MlirPrinter.print(m.op());
        assertTrue(text.contains("%reinterpret_cast = memref.reinterpret_cast %arg0 to offset: [3], sizes: [8, 32],"
                + " strides: [32, 1] : memref<256xf32> to memref<8x32xf32, strided<[32, 1], offset: 3>>\n")
                && text.contains("%reinterpret_cast_0 = memref.reinterpret_cast %arg0 to offset: [%arg1], sizes: [4],"
                + " strides: [1] : memref<256xf32> to memref<4xf32, strided<[1], offset: ?>>\n"), text);
        Mgpu.compileKernels(m.op(), Mgpu.Options.DEFAULT.withKernels(KernelOptions.DEFAULT.withFormat(
                ObjectFormat.ASSEMBLY)));
        String ptx = new String(new BinaryOp(m.body().operations().get(0)).object(0).object().bytes(),
                StandardCharsets.UTF_8);
        assertTrue(ptx.contains("+148];"), ptx);
    }

    /**
     * A kernel built to use a value from outside its gpu.func, which is isolated from above: the verifier
     * reports the use, where it reported nothing and translation went on.
     */
    @Test
    void aValueFromAboveAnIsolatedFunctionIsReported() {
        Builtin.ModuleOp m = Builtin.ModuleOp.create(LOC);
        Value outer = add(m.body(), Arith.ConstantOp.integer(LOC, 3, Type.INDEX).op());
        GpuModuleOp gm = GpuModuleOp.create(LOC, "k", new Attribute.ArrayAttr(List.of(GpuTarget.CpuTarget.host())));
        m.body().append(gm.op());
        Type.MemRefType out = new Type.MemRefType(new long[] {4}, Type.I32, null, null);
        GpuFuncOp f = GpuFuncOp.create(LOC, "k", new Type.FunctionType(List.of(Type.I32, out), List.of()), true,
                List.of(), List.of());
        gm.body().append(f.op());
        Block b = f.body();
        b.append(MemRef.StoreOp.create(LOC, b.argument(0), b.argument(1), List.of(outer)).op());
        b.append(Operation.create("gpu.return", LOC, List.of(), List.of(), java.util.Map.of()));
        assertEquals(List.of("Invalid operand (must be defined inside the gpu.func that holds its use, which is"
                + " isolated from above): result #0 of arith.constant"), Mgpu.verify(m.op()).stream()
                .map(dev.mgpu.ir.Diagnostic::message).toList());
    }
}
