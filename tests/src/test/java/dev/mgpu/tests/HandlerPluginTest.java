package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mgpu.codegen.EmitKind;
import dev.mgpu.codegen.Mgpu;
import dev.mgpu.ir.Diagnostic;
import dev.mgpu.ir.MgpuException;
import dev.mgpu.ir.Operation;
import dev.mgpu.mlir.MlirPrinter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A handler from another jar plugs in through ServiceLoader: parsed, printed, verified and translated. */
class HandlerPluginTest {
    private static final String SRC = "module attributes {gpu.container_module} {\n"
            + "  gpu.binary @b <#test.last_object<3>> [#gpu.object<#nvvm.target, \"one\">, #gpu.object<#cpu.target, \"two\">]\n"
            + "  llvm.func @f() {\n"
            + "    %c1 = llvm.mlir.constant(1 : i64) : i64\n"
            + "    gpu.launch_func @b::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) : i64\n"
            + "    llvm.return\n"
            + "  }\n"
            + "}\n";

    @Test
    void pluggedHandlerTranslates() {
        Operation m = Mgpu.parse(SRC.getBytes(StandardCharsets.UTF_8), "plug.mlir");
        assertTrue(MlirPrinter.print(m).contains("gpu.binary @b <#test.last_object<3 : i64>> ["),
                MlirPrinter.print(m));
        String ir = new String(Mgpu.emit(m, EmitKind.LLVM, Mgpu.Options.DEFAULT), StandardCharsets.UTF_8);
        assertTrue(ir.contains("@b_last = internal constant [3 x i8] c\"two\", align 16"), ir);
        assertEquals(3, ir.split("call void @mgpuLaunchKernel\\(", -1).length - 1, ir);
        assertTrue(ir.contains("@test_handler_was_here"), ir);
    }

    @Test
    void pluggedHandlerVerifies() {
        Operation m = Mgpu.parse(SRC.replace("<3>", "<0>").getBytes(StandardCharsets.UTF_8), "plug.mlir");
        List<Diagnostic> d = Mgpu.verify(m);
        assertEquals(List.of("plug.mlir:2:3: error: Invalid #test.last_object count (must be an integer >= 1): 0 : i64"),
                d.stream().map(Diagnostic::toString).toList());
        assertThrows(MgpuException.class, () -> Mgpu.translate(m, Mgpu.Options.DEFAULT));
    }
}
