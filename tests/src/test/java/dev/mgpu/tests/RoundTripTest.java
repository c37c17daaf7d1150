package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mgpu.ir.Operation;
import dev.mgpu.mlir.MlirParser;
import dev.mgpu.mlir.MlirPrinter;
import dev.mgpu.verify.Verifier;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * For every corpus file: {@code print(parse(print(parse(x)))) == print(parse(x))}, in the custom and the
 * generic form, and the generic form reads back to the same custom text.
 */
class RoundTripTest {
    @TestFactory
    Stream<DynamicTest> corpus() throws IOException {
        var files = TestPaths.mlirFiles("roundtrip");
        assertTrue(files.size() >= 5, "round-trip corpus is missing");
        return files.stream().map(f -> DynamicTest.dynamicTest(f.getFileName().toString(), () -> check(f)));
    }

    private static void check(Path f) throws IOException {
        byte[] bytes = Files.readAllBytes(f);
        for (MlirParser.Chunk c : MlirParser.split(bytes)) {
            Operation m = MlirParser.parse(bytes, c.start(), c.end(), f.toString());
            assertEquals(java.util.List.of(), Verifier.verify(m), "corpus files must verify");
            String once = MlirPrinter.print(m);
            Operation again = MlirParser.parse(once, "printed");
            assertEquals(java.util.List.of(), Verifier.verify(again));
            assertEquals(once, MlirPrinter.print(again), "custom form is not stable");

            MlirPrinter.Options generic = new MlirPrinter.Options(false, true);
            String g1 = MlirPrinter.print(m, generic);
            Operation fromGeneric = MlirParser.parse(g1, "generic");
            assertEquals(g1, MlirPrinter.print(fromGeneric, generic), "generic form is not stable");
            assertEquals(once, MlirPrinter.print(fromGeneric), "generic form means something else");

            MlirPrinter.Options withLocs = new MlirPrinter.Options(true, false);
            String l1 = MlirPrinter.print(m, withLocs);
            assertEquals(l1, MlirPrinter.print(MlirParser.parse(l1, "located"), withLocs), "locations are lost");
        }
    }
}
