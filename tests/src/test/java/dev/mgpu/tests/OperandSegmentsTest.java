package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mgpu.codegen.Mgpu;
import dev.mgpu.dialect.gpu.LaunchFuncOp;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Value;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An op's operand segments read one operand at a time ({@code segmentOperand}, {@code segmentSize}) give what
 * the segment's view gives, with the same failures; and its attributes are found by a key equal to theirs
 * that is not the same string, in the order they were given.
 */
class OperandSegmentsTest {
    private static final String SOURCE = String.join("\n",
            "module attributes {gpu.container_module} {",
            "  llvm.func @main(%p: !llvm.ptr, %t: !gpu.async.token) {",
            "    %c1 = llvm.mlir.constant(1 : index) : i64",
            "    %c2 = llvm.mlir.constant(2 : index) : i64",
            "    %c3 = llvm.mlir.constant(3 : index) : i64",
            "    %s = llvm.mlir.constant(64 : i32) : i32",
            "    %r = gpu.launch_func async [%t] @m::@k blocks in (%c1, %c2, %c3) threads in (%c3, %c2, %c1)"
                    + " : i64 dynamic_shared_memory_size %s args(%p : !llvm.ptr, %c2 : i64)",
            "    llvm.return",
            "  }",
            "}", "");

    private static Operation launch() {
        Operation module = Mgpu.parse(SOURCE.getBytes(StandardCharsets.UTF_8), "segments.mlir");
        Operation main = module.region(0).entry().operations().get(0);
        return main.region(0).entry().operations().get(4);
    }

    @Test
    void oneOperandAtATimeAsTheView() {
        Operation op = launch();
        assertEquals(LaunchFuncOp.NAME, op.name());
        int segments = 13;
        for (int s = 0; s < segments; s++) {
            List<Value> view = op.segment(s);
            assertEquals(view.size(), op.segmentSize(s), "segment " + s);
            for (int i = 0; i < view.size(); i++) {
                assertSame(view.get(i), op.segmentOperand(s, i), "segment " + s + " operand " + i);
            }
            int seg = s;
            int past = view.size();
            assertThrows(IndexOutOfBoundsException.class, () -> op.segmentOperand(seg, past));
        }
        // The sizes by segment: one token, three grid and three block sizes, no clusters, the shared memory
        // size, two kernel operands, no stream.
        int[] sizes = {1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 2, 0};
        for (int s = 0; s < segments; s++) {
            assertEquals(sizes[s], op.segmentSize(s), "segment " + s);
        }
        LaunchFuncOp l = new LaunchFuncOp(op);
        assertEquals("%c2", name(l.gridSize(1)));
        assertEquals("%c3", name(l.blockSize(0)));
        assertNull(l.clusterSize(0));
        assertFalse(l.hasClusters());
        assertEquals("%s", name(l.dynamicSharedMemorySize()));
        assertNull(l.asyncObject());
        assertThrows(IndexOutOfBoundsException.class, () -> op.segmentOperand(0, -1));
        IllegalStateException none = assertThrows(IllegalStateException.class, () -> op.segmentOperand(segments, 0));
        assertEquals("gpu.launch_func has no operand segment 13", none.getMessage());
        Operation constant = op.parent().operations().get(0);
        assertThrows(IllegalStateException.class, () -> constant.segmentSize(0));
    }

    @Test
    void attributesByAnEqualKey() {
        Operation op = launch();
        assertEquals(List.of("kernel", "operandSegmentSizes"), List.copyOf(op.attributes().keySet()));
        String key = new String("operandSegmentSizes".toCharArray());
        assertTrue(op.attributes().containsKey(key));
        assertTrue(op.attributes().keySet().contains(key));
        assertSame(op.attr("operandSegmentSizes"), op.attr(key));
        assertNull(op.attr("operandSegmentSize"));
        assertFalse(op.attributes().keySet().contains("kernels"));
    }

    /** The name a constant's value prints with: its result's name in the source, found from its value. */
    private static String name(Value v) {
        Operation def = ((Value.OpResult) v).owner();
        long value = ((dev.mgpu.ir.Attribute.IntegerAttr) def.attr("value")).value();
        return value == 64 ? "%s" : "%c" + value;
    }
}
