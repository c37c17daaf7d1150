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

    @Test
    void howAChildEnded() {
        assertEquals("crashed (SIGSEGV)", IsolatedBackend.ended(139));
        assertEquals("crashed (SIGABRT)", IsolatedBackend.ended(134));
        assertEquals("exited with 2", IsolatedBackend.ended(2));
    }
}
