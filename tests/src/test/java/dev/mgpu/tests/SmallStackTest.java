package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mgpu.codegen.EmitKind;
import dev.mgpu.codegen.Mgpu;
import dev.mgpu.ir.MgpuException;
import dev.mgpu.ir.Operation;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The deepest nesting the parser accepts is parsed, verified, printed and translated on any caller's
 * thread, even one with a stack of 256 KiB, and one level more is a located error: never a
 * StackOverflowError. (Nested gpu.func bodies once overflowed a test thread's stack at a depth the parser
 * accepted.)
 */
class SmallStackTest {
    private static String nested(int levels) {
        StringBuilder b = new StringBuilder("module attributes {gpu.container_module} {\n  gpu.module @m {\n");
        for (int i = 0; i < levels; i++) {
            b.append("    gpu.func @k() kernel {\n");
        }
        for (int i = 0; i < levels; i++) {
            b.append("    gpu.return\n    }\n");
        }
        return b.append("  }\n}\n").toString();
    }

    private static void onSmallStack(Runnable r) throws Exception {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = new Thread(null, () -> {
            try {
                r.run();
            } catch (Throwable e) {
                failure.set(e);
            }
        }, "small-stack", 256 << 10);
        t.start();
        t.join();
        if (failure.get() instanceof Exception e) {
            throw e;
        }
        if (failure.get() instanceof Error e) {
            throw e;
        }
    }

    @Test
    void deepestAcceptedNestingOnASmallStack() throws Exception {
        onSmallStack(() -> {
            Operation m = Mgpu.parse(nested(497).getBytes(), "deep.mlir");
            assertFalse(Mgpu.verify(m).isEmpty(), "kernels nested in kernels must not verify");
            byte[] printed = dev.mgpu.mlir.MlirPrinter.print(m).getBytes();
            assertTrue(printed.length > 497 * 20);
            MgpuException e = assertThrows(MgpuException.class, () -> Mgpu.emit(m, EmitKind.BC, Mgpu.Options.DEFAULT));
            assertTrue(e.diagnostics().get(0).toString().startsWith("deep.mlir:"), e.toString());
        });
    }

    @Test
    void oneLevelMoreIsALocatedError() throws Exception {
        onSmallStack(() -> {
            MgpuException e = assertThrows(MgpuException.class, () -> Mgpu.parse(nested(600).getBytes(), "deep.mlir"));
            assertEquals("deep.mlir:501:26: error: Invalid nesting (must be at most 500 levels deep): level 501",
                    e.diagnostics().get(0).toString());
        });
    }
}
