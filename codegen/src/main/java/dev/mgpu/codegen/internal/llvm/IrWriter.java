package dev.mgpu.codegen.internal.llvm;

import static org.bytedeco.llvm.global.LLVM.LLVMConstNull;
import static org.bytedeco.llvm.global.LLVM.LLVMDisposeMessage;
import static org.bytedeco.llvm.global.LLVM.LLVMGetAsString;
import static org.bytedeco.llvm.global.LLVM.LLVMGetFirstGlobal;
import static org.bytedeco.llvm.global.LLVM.LLVMGetInitializer;
import static org.bytedeco.llvm.global.LLVM.LLVMGetNextGlobal;
import static org.bytedeco.llvm.global.LLVM.LLVMGlobalGetValueType;
import static org.bytedeco.llvm.global.LLVM.LLVMIsAConstantDataArray;
import static org.bytedeco.llvm.global.LLVM.LLVMIsConstantString;
import static org.bytedeco.llvm.global.LLVM.LLVMPrintModuleToString;
import static org.bytedeco.llvm.global.LLVM.LLVMPrintValueToString;
import static org.bytedeco.llvm.global.LLVM.LLVMSetInitializer;

import dev.mgpu.codegen.NativeModule;
import dev.mgpu.ir.AsmOutput;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.SizeTPointer;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * Writes a module as LLVM IR text, byte for byte what LLVM's printer writes. LLVM escapes a byte-array
 * constant one character at a time through its stream layer, which is most of the time for a module that
 * embeds a binary of tens of MiB. So each such constant of {@link #THRESHOLD} bytes or more is zeroed while
 * LLVM prints the rest, and its bytes are written here into its place, escaped as LLVM escapes them
 * ({@link AsmOutput#escaped}).
 */
public final class IrWriter {
    /** Constants smaller than this are left to LLVM. */
    public static final long THRESHOLD = 1 << 20;

    private static final String ZERO = "] zeroinitializer";

    private IrWriter() {
    }

    /** A global whose initializer is an i8 array of at least {@link #THRESHOLD} bytes. */
    public record Blob(LLVMValueRef global, LLVMValueRef init, BytePointer data, long size) {
    }

    /** The module's large i8-array constants; empty for most modules, which LLVM then prints alone. */
    public static List<Blob> largeConstants(NativeModule nm) {
        List<Blob> out = new ArrayList<>();
        for (LLVMValueRef g = LLVMGetFirstGlobal(nm.module()); g != null && !g.isNull(); g = LLVMGetNextGlobal(g)) {
            LLVMValueRef init = LLVMGetInitializer(g);
            if (init == null || init.isNull()) {
                continue;
            }
            LLVMValueRef array = LLVMIsAConstantDataArray(init);
            if (array == null || array.isNull() || LLVMIsConstantString(init) == 0) {
                continue;
            }
            try (SizeTPointer size = new SizeTPointer(1)) {
                BytePointer data = LLVMGetAsString(init, size);
                if (size.get() >= THRESHOLD) {
                    out.add(new Blob(g, init, data, size.get()));
                }
            }
        }
        return out;
    }

    /** Writes the module's IR text to {@code out}; {@code blobs} are its {@link #largeConstants}. */
    public static void write(NativeModule nm, List<Blob> blobs, OutputStream out) throws IOException {
        String text;
        List<String> lines = new ArrayList<>();
        try {
            for (Blob b : blobs) {
                LLVMSetInitializer(b.global(), LLVMConstNull(LLVMGlobalGetValueType(b.global())));
                lines.add(printed(LLVMPrintValueToString(b.global())));
            }
            text = printed(LLVMPrintModuleToString(nm.module()));
        } finally {
            for (Blob b : blobs) {
                LLVMSetInitializer(b.global(), b.init());
            }
        }
        int from = 0;
        for (int i = 0; i < blobs.size(); i++) {
            String line = lines.get(i);
            int at = text.indexOf("\n" + line + "\n", from - 1) + 1;
            int zero = line.indexOf(ZERO);
            if (at <= 0 || zero < 0) {
                throw new IllegalStateException("LLVM printed a global unlike its own line: " + line);
            }
            out.write(text.substring(from, at + zero + 2).getBytes(StandardCharsets.ISO_8859_1));
            out.write('c');
            out.write('"');
            escape(blobs.get(i), out);
            out.write('"');
            from = at + zero + ZERO.length();
        }
        out.write(text.substring(from).getBytes(StandardCharsets.ISO_8859_1));
    }

    /** A string LLVM allocated, as Latin-1 so that every byte stays one char, and disposed of. */
    private static String printed(BytePointer s) {
        try {
            return new String(s.getStringBytes(), StandardCharsets.ISO_8859_1);
        } finally {
            LLVMDisposeMessage(s);
        }
    }

    private static void escape(Blob b, OutputStream out) throws IOException {
        byte[] in = new byte[1 << 16];
        byte[] buf = new byte[3 * in.length + 1];
        for (long off = 0; off < b.size(); off += in.length) {
            int n = (int) Math.min(in.length, b.size() - off);
            b.data().position(off).get(in, 0, n);
            int k = AsmOutput.escape(in, 0, n, buf, 0);
            out.write(buf, 0, k);
        }
    }
}
