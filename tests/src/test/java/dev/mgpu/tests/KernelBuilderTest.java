package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mgpu.codegen.KernelOptions;
import dev.mgpu.codegen.Mgpu;
import dev.mgpu.dialect.KernelBuilder;
import dev.mgpu.dialect.gpu.AddressSpaceAttr;
import dev.mgpu.dialect.gpu.AllReduceOp;
import dev.mgpu.dialect.gpu.OffloadingHandlerAttr;
import dev.mgpu.dialect.gpu.ShuffleOp;
import dev.mgpu.ir.MgpuException;
import dev.mgpu.dialect.arith.Arith;
import dev.mgpu.dialect.arith.Casts;
import dev.mgpu.dialect.arith.Comparisons;
import dev.mgpu.dialect.builtin.Builtin;
import dev.mgpu.dialect.gpu.BinaryOp;
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

    /** The axpy kernel of examples/kernels/axpy.mlir, built with the kernel builders. */
    static Builtin.ModuleOp axpy() {
        Builtin.ModuleOp m = Builtin.ModuleOp.create(LOC);
        m.setGpuContainer();
        GpuModuleOp gm = GpuModuleOp.create(LOC, "axpy_kernels", null).setTargets(List.of(
                GpuTarget.NVVMTarget.of("sm_90"), GpuTarget.NVVMTarget.of("sm_80"), GpuTarget.ROCDLTarget.of("gfx90a"),
                GpuTarget.CpuTarget.host())).setOffloadingHandler(new OffloadingHandlerAttr.RuntimeSelect());
        m.body().append(gm.op());
        Type.MemRefType vec = new Type.MemRefType(new long[] {1024}, Type.F32, null, null);
        GpuFuncOp f = KernelBuilder.kernel(gm, LOC, "axpy", List.of(Type.F32, vec, vec, Type.I32), List.of(),
                List.of());
        KernelBuilder b = KernelBuilder.atEnd(f.body(), LOC);
        Value args0 = f.body().argument(0);
        Value x = f.body().argument(1);
        Value y = f.body().argument(2);
        Value tid = b.threadId(0);
        Value bid = b.blockId(0);
        Value bdim = b.blockDim(0);
        Value i = b.arith("addi", b.arith("muli", bid, bdim), tid);
        Value n = b.cast("index_cast", f.body().argument(3), Type.INDEX);
        Scf.IfOp guard = b.ifThen(b.cmpi("slt", i, n), List.of(), false);
        KernelBuilder then = b.into(guard.thenRegion().entry());
        Value xv = then.load(x, i);
        Value yv = then.load(y, i);
        then.store(then.arith("addf", then.arith("mulf", args0, xv), yv), y, i);
        then.yield();
        b.gpuReturn();
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
        KernelBuilder.atEnd(b, LOC).gpuReturn();
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
        KernelBuilder.atEnd(b, LOC).gpuReturn();
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
        KernelBuilder.atEnd(b, LOC).gpuReturn();
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
        KernelBuilder.atEnd(b, LOC).gpuReturn();
        assertEquals(List.of("Invalid operand (must be defined inside the gpu.func that holds its use, which is"
                + " isolated from above): result #0 of arith.constant"), Mgpu.verify(m.op()).stream()
                .map(dev.mgpu.ir.Diagnostic::message).toList());
    }

    /** A gpu.module with a CPU target, holding one kernel {@code k(f32, memref<1024xf32>)}. */
    private static GpuFuncOp kernelK(Builtin.ModuleOp m, List<Type.MemRefType> workgroup, List<Type.MemRefType> privates) {
        GpuModuleOp gm = GpuModuleOp.create(LOC, "k", null).setTargets(List.of(GpuTarget.NVVMTarget.of("sm_90"),
                GpuTarget.CpuTarget.host()));
        m.body().append(gm.op());
        return KernelBuilder.kernel(gm, LOC, "k", List.of(Type.F32, VEC), workgroup, privates);
    }

    /**
     * Upstream's mlir-opt-22 reads {@code text}, without mgpu's CPU target and run-time choice of object,
     * which upstream lacks. Skipped where it is not installed, except in CI.
     *
     * @param dir where to write the input
     * @param text a module as mgpu prints it
     */
    static void upstreamAccepts(java.nio.file.Path dir, String text) throws Exception {
        java.nio.file.Path mlirOpt = TestPaths.findTool("mlir-opt-22");
        if (mlirOpt == null && System.getenv("CI") == null) {
            return;
        }
        assertTrue(mlirOpt != null, "mlir-opt-22 is not installed, and CI must run this test: install mlir-22-tools");
        java.nio.file.Path in = Files.createTempFile(dir, "upstream", ".mlir");
        Files.writeString(in, text.replace(" <#gpu.runtime_select> [", " [").replace(", #cpu.target] {", "] {"));
        java.nio.file.Path out = java.nio.file.Path.of(in + ".out");
        try {
            Native.exec(dir, java.util.Map.of(), mlirOpt.toString(), in.toString(), "-o", out.toString());
        } finally {
            Files.deleteIfExists(in);
            Files.deleteIfExists(out);
        }
    }

    private static final Type.MemRefType VEC = new Type.MemRefType(new long[] {1024}, Type.F32, null, null);

    /**
     * The typed setters write what the code generator reads: the known block size becomes sm_90's
     * .maxntid, the module's targets its objects, and its offloading handler the binary's.
     */
    @Test
    void typedSettersWriteWhatTheCodegenReads() {
        Builtin.ModuleOp m = Builtin.ModuleOp.create(LOC);
        m.setGpuContainer();
        GpuFuncOp f = kernelK(m, List.of(), List.of()).setKnownBlockSize(128, 1, 1).setKnownGridSize(8, 2, 1);
        GpuModuleOp gm = new GpuModuleOp(f.op().parentOp());
        assertEquals(null, gm.offloadingHandler());
        gm.setOffloadingHandler(new OffloadingHandlerAttr.RuntimeSelect());
        KernelBuilder.atEnd(f.body(), LOC).gpuReturn();
        assertEquals(List.of(), Mgpu.verify(m.op()));
        assertEquals("[128, 1, 1] [8, 2, 1]", java.util.Arrays.toString(f.knownBlockSize()) + " "
                + java.util.Arrays.toString(f.knownGridSize()));
        assertEquals(List.of(GpuTarget.NVVMTarget.of("sm_90"), GpuTarget.CpuTarget.host()), gm.targets());
        String text = MlirPrinter.print(m.op());
        assertTrue(text.contains("gpu.module @k <#gpu.runtime_select> [#nvvm.target<chip = \"sm_90\">, #cpu.target] {\n"
                + "    gpu.func @k(%arg0: f32, %arg1: memref<1024xf32>) kernel attributes {known_block_size = array<i32:"
                + " 128, 1, 1>, known_grid_size = array<i32: 8, 2, 1>} {\n      gpu.return\n"), text);
        Mgpu.compileKernels(m.op(), Mgpu.Options.DEFAULT.withKernels(KernelOptions.DEFAULT.withFormat(
                ObjectFormat.ASSEMBLY)));
        BinaryOp bin = new BinaryOp(m.body().operations().get(0));
        assertEquals(new OffloadingHandlerAttr.RuntimeSelect(), bin.handler());
        assertEquals(2, bin.objects().size());
        String ptx = new String(bin.object(0).object().bytes(), StandardCharsets.UTF_8);
        assertTrue(ptx.contains(".maxntid 128, 1, 1"), ptx);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> f.setKnownBlockSize(0, 1, 1));
        assertEquals("Invalid known_block_size of gpu.func @k (must be sizes >= 1): 0, 1, 1", e.getMessage());
        assertEquals("Invalid gpu.module targets (must list at least one target): []", assertThrows(
                IllegalArgumentException.class, () -> GpuModuleOp.create(LOC, "e", null).setTargets(List.of()))
                .getMessage());
    }

    /**
     * Every kernel builder builds what verifies, prints in upstream's syntax and compiles for sm_90 and
     * the CPU: the gpu ops of kernels, attributions, memref views and allocas, loops that carry values, and
     * the arith, math and cf ops.
     */
    @Test
    void everyKernelBuilderBuildsWhatVerifiesAndCompiles() throws Exception {
        Builtin.ModuleOp m = Builtin.ModuleOp.create(LOC);
        m.setGpuContainer();
        Type.MemRefType tile = new Type.MemRefType(new long[] {64}, Type.F32, null, new AddressSpaceAttr("workgroup"));
        Type.MemRefType own = new Type.MemRefType(new long[] {4}, Type.I32, null, new AddressSpaceAttr("private"));
        GpuFuncOp f = kernelK(m, List.of(tile), List.of(own));
        KernelBuilder b = KernelBuilder.atEnd(f.body(), LOC);
        Value a = f.body().argument(0);
        Value v = f.body().argument(1);
        Value g = b.globalId(0);
        Value lane = b.laneId();
        b.subgroupSize();
        b.gridDim(1);
        Value c0 = b.constant(0, Type.INDEX);
        Value c1 = b.constant(1, Type.INDEX);
        Value w = b.constant(32, Type.I32);
        ShuffleOp sh = b.shuffle("xor", a, b.constant(1, Type.I32), w);
        Value sum = b.subgroupReduce("add", sh.op().result(0), 0, 1);
        Value most = b.allReduce("maximumf", sum, true);
        AllReduceOp custom = b.allReduce(most, false);
        KernelBuilder body = b.into(custom.body());
        body.reduceYield(body.arith("addf", custom.body().argument(0), custom.body().argument(1)));
        b.store(custom.op().result(), f.workgroupAttribution(0), c0);
        b.barrier();
        // Over the one element of the tile that was written (LLVM may take the others as anything).
        Scf.ForOp loop = b.forLoop(c0, c1, c1, b.constant(0.0, Type.F32));
        KernelBuilder lb = b.into(loop.body());
        Value x = lb.load(f.workgroupAttribution(0), loop.body().argument(0));
        lb.yield(lb.math("fma", x, a, loop.body().argument(1)));
        Value root = b.math("sqrt", loop.op().result(0));
        Value pos = b.cmpf("oge", root, b.constant(0.0, Type.F32));
        b.assertThat(pos, "a root is never negative");
        b.store(b.select(pos, root, a), v, g);
        Value bits = b.cast("fptosi", root, Type.I32);
        b.store(bits, f.privateAttribution(0), c1);
        b.atomicRmw("addf", root, v, lane);
        Value stack = b.alloca(new Type.MemRefType(new long[] {4}, Type.F32, null, null));
        Value part = b.subview(v, List.of(c1), List.of(8L), List.of(1L));
        b.store(b.load(part, c0), stack, c0);
        b.dynamicSharedMemory();
        b.printf("lane %d: %f\n", lane, root);
        b.gpuReturn();
        assertEquals(List.of(), Mgpu.verify(m.op()));
        String text = MlirPrinter.print(m.op());
        for (String line : List.of("workgroup(%arg2 : memref<64xf32, #gpu.address_space<workgroup>>) private(%arg3 :"
                + " memref<4xi32, #gpu.address_space<private>>) kernel {", "= gpu.global_id x\n", "= gpu.lane_id\n",
                "= gpu.subgroup_size : index\n", "= gpu.grid_dim y\n", "= gpu.shuffle xor %arg0, %c1_i32, %c32_i32 : f32",
                "= gpu.subgroup_reduce add %shuffleResult : (f32) -> f32", "= gpu.all_reduce maximumf %",
                "gpu.yield %", "gpu.barrier\n", "= scf.for %arg4 = %c0 to %c1 step %c1 iter_args(%arg5 = %cst) -> (f32) {", "= math.fma %",
                "= math.sqrt %", "= arith.cmpf oge, %", "cf.assert %", "\"a root is never negative\"",
                "= arith.select %", "= arith.fptosi %", "= memref.atomic_rmw addf %", "= memref.alloca() : memref<4xf32>", "= memref.subview %arg1[%c1] [8] [1] : memref<1024xf32> to memref<8xf32, strided<[1],"
                + " offset: ?>>", "= gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>",
                "gpu.printf \"lane %d: %f\\0A\", %")) {
            assertTrue(text.contains(line), line + "\n---\n" + text);
        }
        java.nio.file.Path dir = Files.createTempDirectory("mgpu-kernel-builder");
        upstreamAccepts(dir, text);
        Files.delete(dir);
        Mgpu.compileKernels(m.op(), Mgpu.Options.DEFAULT.withKernels(KernelOptions.DEFAULT.withFormat(
                ObjectFormat.ASSEMBLY)));
        String ptx = new String(new BinaryOp(m.body().operations().get(0)).object(0).object().bytes(),
                StandardCharsets.UTF_8);
        assertTrue(ptx.contains("bar.sync") && ptx.contains("atom.global.add.f32") && ptx.contains("vprintf"), ptx);
    }

    /** Each kernel builder refuses what it cannot build, at the builder's location, saying what it takes. */
    @Test
    void kernelBuildersRejectMisuseWithLocatedErrors() {
        Builtin.ModuleOp m = Builtin.ModuleOp.create(LOC);
        GpuFuncOp f = kernelK(m, List.of(), List.of());
        Location at = Location.of("gen.java", 7, 3);
        KernelBuilder b = KernelBuilder.atEnd(f.body(), LOC).at(at);
        Value a = f.body().argument(0);
        Value v = f.body().argument(1);
        Value c0 = b.constant(0, Type.INDEX);
        Value i32 = b.constant(1, Type.I32);
        Value yes = b.cmpi("eq", c0, c0);
        Scf.IfOp branch = b.ifThen(yes, List.of(), false);
        KernelBuilder inIf = b.into(branch.thenRegion().entry());
        Type.MemRefType global = new Type.MemRefType(new long[] {8}, Type.F32, null, null);
        java.util.Map<String, org.junit.jupiter.api.function.Executable> misuse = new java.util.LinkedHashMap<>();
        misuse.put("Invalid dimension of gpu.thread_id (must be 0, 1 or 2 for x, y or z): 3", () -> b.threadId(3));
        misuse.put("Invalid gpu.return (must end a block of a gpu.func; an scf region ends with scf.yield): a block"
                + " of scf.if", () -> inIf.gpuReturn());
        misuse.put("Invalid gpu.return of @k (must return ()): (f32)", () -> b.gpuReturn(a));
        misuse.put("Invalid mode of gpu.shuffle (must be one of [xor, up, down, idx]): rotate",
                () -> b.shuffle("rotate", a, i32, i32));
        misuse.put("Invalid offset of gpu.shuffle (must be i32): index", () -> b.shuffle("xor", a, c0, i32));
        misuse.put("Invalid value of gpu.shuffle (must be i32, i64, f32 or f64): index", () -> b.shuffle("xor", c0,
                i32, i32));
        misuse.put("Invalid maxsi of gpu.all_reduce (must reduce integers): f32", () -> b.allReduce("maxsi", a, true));
        misuse.put("Invalid reduction of gpu.subgroup_reduce (must be one of [add, mul, minui, minsi, minnumf, maxui,"
                + " maxsi, maxnumf, and, or, xor, minimumf, maximumf]): sum", () -> b.subgroupReduce("sum", a, 0, 1));
        misuse.put("Invalid cluster_size of gpu.subgroup_reduce (must be a power of 2 up to 64, or 0 for the whole"
                + " subgroup): 3", () -> b.subgroupReduce("add", a, 3, 1));
        misuse.put("Invalid operand of gpu.all_reduce (must be an integer or float): index", () -> b.allReduce(c0,
                true));
        misuse.put("Invalid gpu.yield (must end the body of a gpu.all_reduce): a block of gpu.func",
                () -> b.reduceYield(a));
        misuse.put("Invalid argument of gpu.printf (must be an integer, index or float): memref<1024xf32>",
                () -> b.printf("%d", v));
        misuse.put("Invalid indices of memref.load (must be one per dimension of memref<1024xf32>): 2",
                () -> b.load(v, c0, c0));
        misuse.put("Invalid index of memref.load (must be index): i32", () -> b.load(v, i32));
        misuse.put("Invalid memref of memref.load (must be a ranked memref): f32", () -> b.load(a, c0));
        misuse.put("Invalid value of memref.store (must be f32): i32", () -> b.store(i32, v, c0));
        misuse.put("Invalid kind of memref.atomic_rmw (must be one of " + MemRef.AtomicRMWOp.KINDS + "): add",
                () -> b.atomicRmw("add", a, v, c0));
        misuse.put("Invalid memref.alloca in a kernel (must have a static shape): memref<?xf32>",
                () -> b.alloca(new Type.MemRefType(new long[] {Type.DYNAMIC}, Type.F32, null, null)));
        misuse.put("Invalid sizes of memref.subview (must be one per dimension of memref<1024xf32>): 2",
                () -> b.subview(v, List.of(0L), List.of(8L, 1L), List.of(1L)));
        misuse.put("Invalid offsets of memref.subview (must be a Long or an index value): i32",
                () -> b.subview(v, List.of(i32), List.of(8L), List.of(1L)));
        misuse.put("Invalid upper bound of scf.for (must be index): i32", () -> b.forLoop(c0, i32, c0));
        misuse.put("Invalid condition of scf.if (must be i1): index", () -> b.ifThen(c0, List.of(), false));
        misuse.put("Invalid scf.if (must have an else branch to yield results): (f32)", () -> b.ifThen(yes,
                List.of(Type.F32), false));
        misuse.put("Invalid scf.yield (must end a body of scf.for or scf.if): a block of gpu.func", () -> b.yield());
        misuse.put("Invalid scf.yield in scf.if (must yield ()): (f32)", () -> inIf.yield(a));
        misuse.put("Invalid condition of cf.assert (must be i1): f32", () -> b.assertThat(a, "never"));
        misuse.put("Invalid type of an integer arith.constant (must be an integer or index): f32",
                () -> b.constant(1, (Type) Type.F32));
        misuse.put("Invalid operand of arith.addf (must be a float): index", () -> b.arith("addf", c0, c0));
        misuse.put("Invalid right operand of arith.addi (must be index): i32", () -> b.arith("addi", c0, i32));
        misuse.put("Invalid predicate of arith.cmpi (must be one of " + Comparisons.CmpIOp.PREDICATES + "): lt",
                () -> b.cmpi("lt", c0, c0));
        misuse.put("Invalid operand of arith.cmpf (must be a float): index", () -> b.cmpf("olt", c0, c0));
        misuse.put("Invalid false value of arith.select (must be f32): index", () -> b.select(yes, a, c0));
        misuse.put("Invalid operands of math.fma (must be 3): 2", () -> b.math("fma", a, a));
        misuse.put("Invalid operand of math.ctpop (must be an integer): f32", () -> b.math("ctpop", a));
        misuse.put("Invalid workgroup attribution (must be a memref of static shape in"
                + " #gpu.address_space<workgroup>): memref<8xf32>", () -> KernelBuilder.kernel(new GpuModuleOp(
                        f.op().parentOp()), at, "w", List.of(), List.of(global), List.of()));
        int before = f.body().operations().size();
        for (var e : misuse.entrySet()) {
            MgpuException thrown = assertThrows(MgpuException.class, e.getValue(), e.getKey());
            assertEquals("gen.java:7:3: error: " + e.getKey(), thrown.getMessage());
            assertEquals(at, thrown.location());
        }
        assertEquals(before, f.body().operations().size(), "a refused op was appended");
    }
}
