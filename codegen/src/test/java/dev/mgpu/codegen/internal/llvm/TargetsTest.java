package dev.mgpu.codegen.internal.llvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.mgpu.ir.Location;
import dev.mgpu.ir.MgpuException;
import dev.mgpu.ir.Operation;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** An output of 2 GiB or more is a clear error when it must come back as an array, never a negative size. */
class TargetsTest {
    @Test
    void outputsOfTwoGigabytesOrMoreAreNamed() {
        Operation m = Operation.create("builtin.module", Location.of("big.mlir", 1, 1), List.of(), List.of(), Map.of());
        assertEquals(1024, Targets.arrayLength(1024, m));
        MgpuException e = assertThrows(MgpuException.class, () -> Targets.arrayLength(3L << 30, m));
        assertEquals("big.mlir:1:1: error: Invalid output size (must be below 2 GiB to be returned in memory; write it"
                + " to a file instead): 3221225472 bytes", e.getMessage());
    }
}
