package dev.mgpu.tests;

import static org.bytedeco.llvm.global.LLVM.LLVMDisposeMessage;
import static org.bytedeco.llvm.global.LLVM.LLVMInt64TypeInContext;
import static org.bytedeco.llvm.global.LLVM.LLVMPrintTypeToString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mgpu.codegen.NativeModule;
import dev.mgpu.codegen.RuntimeCalls;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bytedeco.javacpp.BytePointer;
import org.junit.jupiter.api.Test;

/**
 * Every mgpu* function the generator declares has the signature of its prototype in mgpu.h, read from
 * the header, as a C compiler for x86_64 or aarch64 Linux lowers it: code we generate links against any
 * runtime with upstream's signatures, and upstream's code against ours.
 */
class RuntimeDeclarationsTest {
    private static final Pattern PROTOTYPE = Pattern.compile(
            "(?m)^([A-Za-z_][\\w\\s\\*]*?)\\s*\\b(mgpu\\w+)\\(([^)]*)\\);");

    @Test
    void declarationsMatchTheHeader() throws Exception {
        String header = Files.readString(TestPaths.root().resolve("runtime-c/include/mgpu.h"));
        // The header also declares functions that only programs call (mgpuMemGetDeviceMemRef1dFloat returns a
        // struct): a prototype is lowered when the generator declares its function.
        Map<String, Matcher> fromHeader = new HashMap<>();
        Matcher m = PROTOTYPE.matcher(header);
        while (m.find()) {
            fromHeader.put(m.group(2), PROTOTYPE.matcher(m.group()));
        }
        assertTrue(fromHeader.containsKey("mgpuMemGetDeviceMemRef1dFloat"), "prototypes not read: " + fromHeader.keySet());
        Map<String, String> expected = new TreeMap<>();
        Map<String, String> declared = new TreeMap<>();
        try (NativeModule nm = new NativeModule("runtime-decls")) {
            RuntimeCalls rt = new RuntimeCalls(nm.module(), nm.context(), LLVMInt64TypeInContext(nm.context()));
            assertTrue(rt.names().size() > 20, "too few runtime functions: " + rt.names());
            for (String name : rt.names()) {
                assertNotNull(fromHeader.get(name), name + " is not declared in mgpu.h");
                expected.put(name, lowered(fromHeader.get(name)));
                BytePointer s = LLVMPrintTypeToString(rt.type(name));
                declared.put(name, s.getString());
                LLVMDisposeMessage(s);
            }
        }
        assertEquals(expected, declared);
    }

    /** The LLVM function type a prototype lowers to. */
    private static String lowered(Matcher prototype) {
        assertTrue(prototype.matches());
        StringBuilder t = new StringBuilder(llvmType(prototype.group(1))).append(" (");
        String params = prototype.group(3).strip();
        if (!params.equals("void")) {
            String[] ps = params.split(",");
            for (int i = 0; i < ps.length; i++) {
                String p = ps[i].strip().replaceAll("\\s+", " ");
                String type = p.substring(0, p.lastIndexOf(p.contains("*") ? '*' : ' ') + 1);
                t.append(i > 0 ? ", " : "").append(llvmType(type));
            }
        }
        return t.append(')').toString();
    }

    /** The LLVM type a C type lowers to on the 64-bit Linux targets. */
    private static String llvmType(String c) {
        String t = c.replace("const ", "").replace("extern ", "").strip().replaceAll("\\s+", " ");
        if (t.endsWith("*")) {
            return "ptr";
        }
        switch (t) {
            case "void": return "void";
            case "bool": return "i8";
            case "unsigned short": case "uint16_t": return "i16";
            case "int": case "unsigned int": case "int32_t": case "uint32_t": return "i32";
            case "size_t": case "intptr_t": case "int64_t": case "uint64_t": return "i64";
            default: throw new AssertionError("no lowering for C type '" + t + "'");
        }
    }
}
