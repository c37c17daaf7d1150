package dev.mgpu.tests;

import dev.mgpu.dialect.gpu.BinaryOp;
import dev.mgpu.dialect.gpu.ObjectAttr;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mgpu.codegen.Mgpu;
import dev.mgpu.dialect.builtin.Builtin;
import dev.mgpu.dialect.func.Func;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Diagnostic;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.MgpuException;
import dev.mgpu.dialect.gpu.OffloadingHandlerAttr;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.mlir.MlirParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every model the verifier rejects is handed straight to the translation API: each must come back as a
 * Java exception carrying file:line:col, never reach LLVM (which would abort the JVM).
 */
class TranslationSafetyTest {
    @TestFactory
    Stream<DynamicTest> rejectedModelsNeverReachLlvm() throws Exception {
        List<DynamicTest> tests = new ArrayList<>();
        for (Path f : TestPaths.mlirFiles("verify")) {
            byte[] bytes = Files.readAllBytes(f);
            List<MlirParser.Chunk> chunks = MlirParser.split(bytes);
            for (int i = 0; i < chunks.size(); i++) {
                MlirParser.Chunk c = chunks.get(i);
                String name = f.getFileName() + " part " + i;
                tests.add(DynamicTest.dynamicTest(name, () -> {
                    Operation m = MlirParser.parse(bytes, c.start(), c.end(), f.toString());
                    MgpuException e = assertThrows(MgpuException.class, () -> Mgpu.translate(m, Mgpu.Options.DEFAULT).close());
                    assertFalse(e.diagnostics().isEmpty());
                    for (Diagnostic d : e.diagnostics()) {
                        Location.FileLineCol l = assertInstanceOf(Location.FileLineCol.class, d.location());
                        assertTrue(l.line() > 0 && l.file().endsWith(f.getFileName().toString()), d.toString());
                    }
                }));
            }
        }
        assertTrue(tests.size() >= 20);
        return tests.stream();
    }

    @Test
    void invalidModelBuiltInJava() {
        Location loc = Location.of("gen.java", 12, 5);
        Builtin.ModuleOp module = Builtin.ModuleOp.create(Location.of("gen.java", 1, 1));
        module.setGpuContainer();
        module.body().append(BinaryOp.create(loc, "empty", null, List.of()).op());
        module.body().append(BinaryOp.create(Location.of("gen.java", 13, 5), "neg",
                new OffloadingHandlerAttr.SelectObject(Attribute.IntegerAttr.i64(-1)),
                List.of(ObjectAttr.of(dev.mgpu.dialect.gpu.GpuTarget.NVVMTarget.of("sm_90"), new byte[] {1}))).op());
        Func.FuncOp fn = Func.FuncOp.create(Location.of("gen.java", 20, 1), "main",
                new Type.FunctionType(List.of(), List.of()));
        module.body().append(fn.op());
        MgpuException e = assertThrows(MgpuException.class, () -> Mgpu.translate(module.op(), Mgpu.Options.DEFAULT));
        List<String> got = e.diagnostics().stream().map(Diagnostic::toString).toList();
        org.junit.jupiter.api.Assertions.assertEquals(List.of(
                "gen.java:12:5: error: Invalid gpu.binary objects (must be a non-empty array of #gpu.object): []",
                "gen.java:13:5: error: Invalid object index (must be >= 0): -1",
                "gen.java:20:1: error: Invalid block (must end with a terminator): empty block"), got);
    }
}
