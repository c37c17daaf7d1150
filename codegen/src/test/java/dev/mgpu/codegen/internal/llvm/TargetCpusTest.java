package dev.mgpu.codegen.internal.llvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.mgpu.ir.Location;
import org.junit.jupiter.api.Test;

/**
 * The GPU CPU tables that ship as resources are found where the class looks for them (they were not, after a
 * move of the class, and every kernel compilation asked llc again), and are exactly what the artifact's llc
 * prints for them.
 */
class TargetCpusTest {
    @Test
    void bundledTablesMatchTheArtifactsLlc() {
        for (String triple : TargetCpus.BUNDLED) {
            assertNotNull(TargetCpus.class.getResource(TargetCpus.resource(triple)), triple);
            assertEquals(TargetCpus.helpFromLlc(triple, Location.UNKNOWN), TargetCpus.help(triple, Location.UNKNOWN),
                    triple);
        }
    }
}
