package dev.mgpu.codegen;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.mgpu.ir.Location;
import dev.mgpu.ir.MgpuException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.SizeTPointer;
import org.bytedeco.llvm.LLVM.LLVMContextRef;
import org.bytedeco.llvm.LLVM.LLVMMemoryBufferRef;
import org.bytedeco.llvm.LLVM.LLVMModuleRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * The kernel objects that a host module of mgpu embeds, read back from it: from LLVM IR or bitcode (its
 * globals), or from an ELF object, shared library or executable (its symbol table). Each object is named by
 * its binary ({@code gpu.binary}'s symbol), its index among the binary's objects, and its chip, which the
 * host module states or the object itself does (a cubin's ELF flags, an HSACO's target note, PTX's
 * {@code .target}).
 *
 * <p>ELF files are read here, in Java, rather than by LLVM's object library: a file given to read may be
 * anything, and a malformed one must be an error, never the end of the process. LLVM IR and bitcode are read by
 * LLVM in a JVM of its own ({@link IrReaderProcess}), for the same reason.
 */
public final class EmbeddedObjects {
    private EmbeddedObjects() {
    }

    /**
     * One embedded object.
     *
     * @param binary the {@code gpu.binary} it belongs to
     * @param index its index among the binary's objects (0 for {@code #gpu.select_object}'s one)
     * @param chip its chip, such as {@code sm_90}, {@code gfx90a} or {@code cpu}; {@code unknown} where
     *     neither the host module nor the object states one
     * @param extension what it is: {@code ptx}, {@code cubin}, {@code fatbin}, {@code hsaco}, {@code so},
     *     {@code bc} (offload), {@code s} (AMDGPU assembly) or {@code bin}
     * @param bytes its bytes
     */
    public record Embedded(String binary, int index, String chip, String extension, byte[] bytes) {
        /** {@return the file name it is written as: {@code BINARY.INDEX.CHIP.EXT}} */
        public String fileName() {
            return binary + "." + index + "." + chip + "." + extension;
        }
    }

    /** {@code <binary>_obj_<i>} (runtime selection) and {@code <binary>_bin_cst} (one selected object). */
    private static final Pattern NAME = Pattern.compile("(.+)_obj_([0-9]+)|(.+)_bin_cst");

    /**
     * The objects embedded in {@code file}'s contents.
     *
     * @param file the file's name, for errors
     * @param bytes its contents: ELF, LLVM bitcode or LLVM IR text
     * @return the objects, in the order the file has them
     * @throws MgpuException located at the file, for contents of none of those kinds
     */
    public static List<Embedded> read(String file, byte[] bytes) {
        if (bytes.length >= 4 && bytes[0] == 0x7f && bytes[1] == 'E' && bytes[2] == 'L' && bytes[3] == 'F') {
            return fromElf(file, bytes);
        }
        return IrReaderProcess.enabled() ? IrReaderProcess.read(file, bytes) : fromIr(file, bytes);
    }

    static MgpuException invalid(String file, String why) {
        return new MgpuException(new Location.FileLineCol(file, 0, 0), "Invalid input for --extract-objects (must be"
                + " an ELF file, LLVM IR or bitcode of a host module): " + why);
    }

    // ------------------------------------------------------------------ ELF

    private static List<Embedded> fromElf(String file, byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        if (bytes.length < 64 || bytes[4] != 2 || bytes[5] != 1) {
            throw invalid(file, "not a 64-bit little-endian ELF file");
        }
        try {
            int type = b.getShort(16) & 0xffff;
            long shoff = b.getLong(40);
            int shentsize = b.getShort(58) & 0xffff;
            int shnum = b.getShort(60) & 0xffff;
            List<long[]> sections = new ArrayList<>();
            for (int i = 0; i < shnum; i++) {
                int at = Math.toIntExact(shoff + (long) i * shentsize);
                // type, address, offset, size, link
                sections.add(new long[] {b.getInt(at + 4) & 0xffffffffL, b.getLong(at + 16), b.getLong(at + 24),
                        b.getLong(at + 32), b.getInt(at + 40) & 0xffffffffL});
            }
            List<Embedded> out = new ArrayList<>();
            for (long[] s : sections) {
                if (s[0] != 2) { // SHT_SYMTAB
                    continue;
                }
                long[] strings = sections.get(Math.toIntExact(s[4]));
                for (long at = s[2]; at + 24 <= s[2] + s[3]; at += 24) {
                    int sym = Math.toIntExact(at);
                    String name = cString(bytes, Math.toIntExact(strings[2] + (b.getInt(sym) & 0xffffffffL)));
                    Matcher m = NAME.matcher(name);
                    int shndx = b.getShort(sym + 6) & 0xffff;
                    if (!m.matches() || shndx == 0 || shndx >= sections.size()) {
                        continue;
                    }
                    long[] in = sections.get(shndx);
                    long value = b.getLong(sym + 8);
                    long size = b.getLong(sym + 16);
                    long offset = in[2] + value - (type == 1 ? 0 : in[1]); // ET_REL: values are section offsets
                    if (in[0] == 8 || offset < 0 || size < 0 || offset + size > bytes.length) { // SHT_NOBITS
                        continue;
                    }
                    byte[] blob = java.util.Arrays.copyOfRange(bytes, Math.toIntExact(offset),
                            Math.toIntExact(offset + size));
                    out.add(embedded(m, blob, null));
                }
            }
            return out;
        } catch (IndexOutOfBoundsException | ArithmeticException e) {
            throw invalid(file, "a section or symbol lies outside the file");
        }
    }

    private static String cString(byte[] bytes, int at) {
        int end = at;
        while (bytes[end] != 0) {
            end++;
        }
        return new String(bytes, at, end - at, StandardCharsets.UTF_8);
    }

    // ------------------------------------------------------------------ LLVM IR and bitcode

    /** The objects embedded in LLVM IR or bitcode, read by LLVM in this process. */
    static List<Embedded> fromIr(String file, byte[] bytes) {
        Llvm.load();
        LLVMContextRef ctx = LLVMContextCreate();
        try {
            LLVMMemoryBufferRef buf;
            try (BytePointer data = new BytePointer(bytes.length + 1L); BytePointer name = new BytePointer(file)) {
                data.put(bytes, 0, bytes.length);
                data.put(bytes.length, (byte) 0);
                // Text must end with a NUL that the buffer does not count; bitcode is read as it is.
                buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(data, bytes.length, name);
            }
            LLVMModuleRef module = new LLVMModuleRef();
            BytePointer err = new BytePointer((Pointer) null);
            if (LLVMParseIRInContext(ctx, buf, module, err) != 0) {
                String m = err.isNull() ? "" : err.getString();
                if (!err.isNull()) {
                    LLVMDisposeMessage(err);
                }
                // LLVM's first line, without its own "FILE:LINE:COL: error: ".
                String first = m.lines().findFirst().orElse("").replaceFirst("^.*?error: ", "");
                throw invalid(file, "LLVM does not read it" + (first.isEmpty() ? "" : ": " + first));
            }
            try {
                List<Embedded> out = new ArrayList<>();
                for (LLVMValueRef g = LLVMGetFirstGlobal(module); g != null && !g.isNull(); g = LLVMGetNextGlobal(g)) {
                    Matcher m = NAME.matcher(LLVMGetValueName(g).getString());
                    LLVMValueRef init = LLVMGetInitializer(g);
                    if (!m.matches() || init == null || init.isNull() || LLVMIsAConstantDataSequential(init) == null
                            || LLVMIsAConstantDataSequential(init).isNull()) {
                        continue;
                    }
                    out.add(embedded(m, string(init), chipGlobal(module, LLVMGetValueName(g).getString() + "_chip")));
                }
                return out;
            } finally {
                LLVMDisposeModule(module);
            }
        } finally {
            LLVMContextDispose(ctx);
        }
    }

    private static byte[] string(LLVMValueRef init) {
        try (SizeTPointer n = new SizeTPointer(1)) {
            BytePointer p = LLVMGetAsString(init, n);
            byte[] out = new byte[Math.toIntExact(n.get())];
            p.get(out);
            return out;
        }
    }

    /** The chip string the host module states beside an object ({@code <object>_chip}), or null. */
    private static String chipGlobal(LLVMModuleRef module, String name) {
        LLVMValueRef g = LLVMGetNamedGlobal(module, name);
        if (g == null || g.isNull()) {
            return null;
        }
        LLVMValueRef init = LLVMGetInitializer(g);
        if (init == null || init.isNull() || LLVMIsAConstantDataSequential(init) == null
                || LLVMIsAConstantDataSequential(init).isNull()) {
            return null;
        }
        String s = new String(string(init), StandardCharsets.UTF_8).replace("\0", "");
        return s.isEmpty() ? null : s;
    }

    // ------------------------------------------------------------------ what an object is

    private static final Pattern PTX_TARGET = Pattern.compile("\\.target\\s+(sm_[0-9]+[a-z]?)");
    private static final Pattern HSA_TARGET = Pattern.compile("amdgcn-amd-amdhsa--(gfx[0-9a-f]+)");

    private static Embedded embedded(Matcher m, byte[] blob, String chip) {
        String binary = m.group(1) != null ? m.group(1) : m.group(3);
        int index = m.group(2) != null ? Integer.parseInt(m.group(2)) : 0;
        String text = new String(blob, StandardCharsets.ISO_8859_1);
        String ext;
        String found = null;
        if (blob.length >= 4 && ByteBuffer.wrap(blob).order(ByteOrder.LITTLE_ENDIAN).getInt(0) == 0xBA55ED50) {
            ext = "fatbin";
            int elf = text.indexOf("\u007fELF");
            found = elf >= 0 ? cudaChip(blob, elf) : null;
        } else if (blob.length >= 20 && text.startsWith("\u007fELF")) {
            int machine = ByteBuffer.wrap(blob).order(ByteOrder.LITTLE_ENDIAN).getShort(18) & 0xffff;
            ext = machine == 190 ? "cubin" : machine == 224 ? "hsaco" : "so";
            found = machine == 190 ? cudaChip(blob, 0) : machine == 224 ? group(HSA_TARGET, text) : "cpu";
        } else if (text.startsWith("BC\u00c0\u00de")) {
            ext = "bc";
        } else if (text.contains(".amdgcn_target")) {
            ext = "s";
            found = group(HSA_TARGET, text);
        } else if (text.contains(".version") && text.contains(".target")) {
            ext = "ptx";
            found = group(PTX_TARGET, text);
        } else if (text.contains(".text")) {
            ext = "s";
            found = "cpu";
        } else {
            ext = "bin";
        }
        if (ext.equals("s") || ext.equals("ptx")) {
            // Text is embedded with a NUL after it, which the file does not need.
            blob = text.endsWith("\0") ? java.util.Arrays.copyOf(blob, blob.length - 1) : blob;
        }
        String name = chip != null ? chip : found != null ? found : "unknown";
        return new Embedded(binary, index, name, ext, blob);
    }

    private static String group(Pattern p, String text) {
        Matcher m = p.matcher(text);
        return m.find() ? m.group(1) : null;
    }

    /** A cubin's chip from its ELF flags: the SM in bits 8-15 from ELF ABI version 8, else in bits 0-7. */
    private static String cudaChip(byte[] blob, int at) {
        if (at + 0x34 > blob.length) {
            return null;
        }
        int flags = ByteBuffer.wrap(blob).order(ByteOrder.LITTLE_ENDIAN).getInt(at + 0x30);
        int sm = blob[at + 8] >= 8 ? (flags >> 8) & 0xff : flags & 0xff;
        return sm == 0 ? null : "sm_" + sm;
    }
}
