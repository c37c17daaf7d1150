package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mgpu.codegen.EmitKind;
import dev.mgpu.codegen.Mgpu;
import dev.mgpu.mlir.MlirParser;
import org.junit.jupiter.api.Test;

/**
 * What mgpu writes grows linearly with what it reads: doubling a launch's arguments at most doubles the
 * LLVM IR text (with a little slack for fixed parts). Sizes only; times are measured in the benchmarks.
 */
class LinearSizeTest {
    private static String launch(int args) {
        StringBuilder params = new StringBuilder();
        StringBuilder operands = new StringBuilder();
        for (int i = 0; i < args; i++) {
            params.append(i > 0 ? ", " : "").append("%a").append(i).append(": i32");
            operands.append(i > 0 ? ", " : "").append("%a").append(i).append(" : i32");
        }
        return "module attributes {gpu.container_module} {\n"
                + "  gpu.binary @k [#gpu.object<#nvvm.target, bin = \"x\">]\n"
                + "  func.func @f(" + params + ") {\n"
                + "    %c1 = arith.constant 1 : index\n"
                + "    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(" + operands
                + ")\n    return\n  }\n}\n";
    }

    private static int llSize(String mlir) {
        return Mgpu.emit(MlirParser.parse(mlir, "linear.mlir"), EmitKind.LLVM, Mgpu.Options.DEFAULT).length;
    }

    @Test
    void launchArgumentsCostLinearText() {
        int small = llSize(launch(1000));
        int large = llSize(launch(2000));
        assertTrue(large < 2.2 * small, "1000 arguments: " + small + " bytes; 2000: " + large + " bytes");
    }
}
