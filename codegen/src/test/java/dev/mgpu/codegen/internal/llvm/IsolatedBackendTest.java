package dev.mgpu.codegen.internal.llvm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** What llc says is reported as LLVM says it in the JVM: without llc's path, nor the name of its input. */
class IsolatedBackendTest {
    @Test
    void llcsErrorsLoseItsPathAndItsInputsName() {
        String log = "/root/.javacpp/cache/llvm.jar/org/bytedeco/llvm/linux-x86_64/llc: error: /root/.javacpp/cache/"
                + "llvm.jar/org/bytedeco/llvm/linux-x86_64/llc: kernels.bc: error: Invalid record\n";
        assertEquals("Invalid record", IsolatedBackend.errors(log));
        assertEquals("a; b", IsolatedBackend.errors("llc: error: a\n<unknown>:0:0: b\n"));
        assertEquals("no message", IsolatedBackend.errors("\n"));
    }

    /** A crash's reason is the same in every run: served runs are byte for byte what runs alone are. */
    @Test
    void aCrashsReasonNamesNoAddress() {
        String log = "LLVM ERROR: Cannot select: 0x55c35d3baa00: i16,ch = AtomicLoadAdd<(load store acq_rel (s16) on"
                + " %ir.sunkaddr, addrspace 1)> # D:1 0x55c35d31dc20, 0x55c35d3bd890, Constant:i16<0>\n"
                + "In function: k\nPLEASE submit a bug report\nStack dump:\n0. Program arguments: /x/llc a.bc\n";
        assertEquals("Cannot select: i16,ch = AtomicLoadAdd<(load store acq_rel (s16) on %ir.sunkaddr, addrspace 1)>",
                IsolatedBackend.reason(log));
        assertEquals("Cannot select: bf16 = bitcast ConstantFP:f16<APFloat(15360)>",
                IsolatedBackend.reason("LLVM ERROR: Cannot select: 0x5646369b9bc0: bf16 = bitcast"
                        + " ConstantFP:f16<APFloat(15360)>\n"));
        assertEquals("Undefined external symbol \"\"", IsolatedBackend.reason("LLVM ERROR: Undefined external symbol"
                + " \"\"\n"));
        assertEquals("no message", IsolatedBackend.reason("PLEASE submit a bug report\nStack dump:\n0. /x/llc\n"));
    }

    @Test
    void howAChildEnded() {
        assertEquals("crashed (SIGSEGV)", IsolatedBackend.ended(139));
        assertEquals("crashed (SIGABRT)", IsolatedBackend.ended(134));
        assertEquals("exited with 2", IsolatedBackend.ended(2));
    }
}
