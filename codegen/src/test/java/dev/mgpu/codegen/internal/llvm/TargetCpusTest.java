package dev.mgpu.codegen.internal.llvm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.mgpu.ir.Location;
import org.junit.jupiter.api.Test;

/** The GPU CPU tables that ship as resources are exactly what the artifact's llc prints for them. */
class TargetCpusTest {
    @Test
    void bundledTablesMatchTheArtifactsLlc() {
        for (String triple : TargetCpus.BUNDLED) {
            assertEquals(TargetCpus.helpFromLlc(triple, Location.UNKNOWN), TargetCpus.help(triple, Location.UNKNOWN),
                    triple);
        }
    }
}
