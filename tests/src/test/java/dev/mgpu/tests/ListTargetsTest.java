package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mgpu.tests.CliTest.Result;
import java.util.List;
import org.junit.jupiter.api.Test;

/** --list-targets prints, a line per back end, its triple and the chips that --targets and the targets take. */
class ListTargetsTest {
    @Test
    void listsTheChipsOfEachBackEnd() {
        Result r = CliTest.run("--list-targets");
        assertEquals(0, r.code(), r.err());
        assertEquals("", r.err());
        List<String> lines = r.text().lines().toList();
        assertEquals(3, lines.size(), r.text());
        assertTrue(lines.get(0).startsWith("nvvm (nvptx64-nvidia-cuda): "), lines.get(0));
        assertTrue(List.of(lines.get(0).split(" ")).containsAll(List.of("sm_50", "sm_80", "sm_90", "sm_90a")),
                lines.get(0));
        assertTrue(lines.get(1).startsWith("rocdl (amdgcn-amd-amdhsa): "), lines.get(1));
        assertTrue(List.of(lines.get(1).split(" ")).containsAll(List.of("gfx90a", "gfx942", "gfx1100")), lines.get(1));
        assertTrue(lines.get(2).startsWith("cpu ("), lines.get(2));
        String arch = System.getProperty("os.arch");
        if (arch.equals("amd64") || arch.equals("x86_64")) {
            assertTrue(lines.get(2).startsWith("cpu (x86_64-"), lines.get(2));
            assertTrue(List.of(lines.get(2).split(" ")).containsAll(List.of("x86-64", "znver3", "skylake")),
                    lines.get(2));
        }
        // Like --version, it answers in place of a run: the options after it are not read.
        assertTrue(CliTest.run("--list-targets", "--help").text().startsWith("nvvm ("), "the first reply wins");
    }
}
