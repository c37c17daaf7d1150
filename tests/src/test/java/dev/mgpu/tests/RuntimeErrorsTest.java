package dev.mgpu.tests;

import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * libmgpu reports every fault by mgpu function, backend and cause, and never crashes, clamps or drops work
 * silently: the checks of {@link RuntimeChecks} on the ordinary build in {@code runtime-c/build}.
 */
class RuntimeErrorsTest {
    private static RuntimeChecks checks;

    @BeforeAll
    static void build() throws Exception {
        checks = new RuntimeChecks(Files.createTempDirectory("mgpu-runtime"), Native.libDir(), List.of(), Map.of());
    }

    @Test
    void deviceQueriesAreChecked() throws Exception {
        checks.deviceQueriesAreChecked();
    }

    @Test
    void oneDeviceLimit() throws Exception {
        checks.oneDeviceLimit();
    }

    @Test
    void outOfRangeDevicesAreRefused() throws Exception {
        checks.outOfRangeDevicesAreRefused();
    }

    @Test
    void functionSlotsGrow() throws Exception {
        checks.functionSlotsGrow();
    }

    @Test
    void sizesAreChecked() throws Exception {
        checks.sizesAreChecked();
    }

    @Test
    void launchesAreChecked() throws Exception {
        checks.launchesAreChecked();
    }

    @Test
    void foreignObjectsAreRefused() throws Exception {
        checks.foreignObjectsAreRefused();
    }

    @Test
    void missingKernelsAreNamed() throws Exception {
        checks.missingKernelsAreNamed();
    }

    @Test
    void failuresEndTheProgram() throws Exception {
        checks.failuresEndTheProgram();
    }

    @Test
    void badFreesAreReported() throws Exception {
        checks.badFreesAreReported();
    }

    @Test
    void deviceMemRefsOfHostMemory() throws Exception {
        checks.deviceMemRefsOfHostMemory();
    }

    @Test
    void tensorMaps() throws Exception {
        checks.tensorMaps();
    }

    @Test
    void cpuStreamsRunSideBySide() throws Exception {
        checks.cpuStreamsRunSideBySide();
    }
}
