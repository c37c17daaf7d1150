package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mgpu.dialect.Dialects;
import dev.mgpu.dialect.OpBuilder;
import dev.mgpu.dialect.arith.Arith;
import dev.mgpu.dialect.builtin.Builtin;
import dev.mgpu.dialect.func.Func;
import dev.mgpu.dialect.gpu.MemsetOp;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Region;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import dev.mgpu.mlir.MlirParser;
import dev.mgpu.mlir.MlirPrinter;
import dev.mgpu.op.OpDef;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The model's structural guarantees: ownership of regions, printing only what is named, op definitions. */
class ModelStructureTest {
    private static final Location LOC = Location.of("structure.java", 1, 1);

    @Test
    void printingAValueDefinedOutsideThePrintedOpIsAnInternalError() {
        Func.FuncOp outer = Func.FuncOp.create(LOC, "outer", new Type.FunctionType(List.of(), List.of()));
        Value c = OpBuilder.atEnd(outer.body(), LOC).constant(1, Type.I32);
        Builtin.ModuleOp m = Builtin.ModuleOp.create(LOC);
        Func.FuncOp f = OpBuilder.atEnd(m.body(), LOC).func("f", new Type.FunctionType(List.of(), List.of()));
        OpBuilder b = OpBuilder.atEnd(f.body(), LOC);
        b.funcReturn(List.of(c));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> MlirPrinter.print(m.op()));
        assertTrue(e.getMessage().startsWith("value without a name"), e.getMessage());
    }

    @Test
    void aRegionBelongsToOneOp() {
        Region r = new Region();
        Operation.create("test.a", LOC, List.of(), List.of(), Map.of(), List.of(r), List.of());
        assertThrows(IllegalStateException.class,
                () -> Operation.create("test.b", LOC, List.of(), List.of(), Map.of(), List.of(r), List.of()));
    }

    @Test
    void genericRegionsAreParsedInOnePass() {
        String text = "\"test.outer\"() ({\n  \"test.inner\"() ({\n    \"test.leaf\"() : () -> ()\n  }, {\n  })"
                + " : () -> ()\n}) : () -> ()\n";
        Operation m = MlirParser.parse(text, "generic.mlir");
        Operation outer = m.region(0).entry().operations().get(0);
        Operation inner = outer.region(0).entry().operations().get(0);
        assertEquals(2, inner.regions().size());
        assertEquals("test.leaf", inner.region(0).entry().operations().get(0).name());
        assertTrue(inner.region(1).isEmpty());
    }

    @Test
    void everyOpIsDefinedByItsClass() {
        for (String name : List.of(MemsetOp.NAME, Arith.ConstantOp.NAME, Arith.BinaryOp.nameOf("addi"),
                Func.ReturnOp.NAME, Builtin.ModuleOp.NAME)) {
            OpDef d = Dialects.lookup(name);
            assertNotNull(d, name);
            assertNotNull(d.parser(), name);
            assertNotNull(d.printer(), name);
        }
        assertThrows(IllegalArgumentException.class, () -> Arith.BinaryOp.nameOf("add"));
    }
}
