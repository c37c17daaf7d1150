package dev.mgpu.codegen.internal.llvm;

import static org.bytedeco.llvm.global.LLVM.LLVMConstNull;
import static org.bytedeco.llvm.global.LLVM.LLVMDisposeMemoryBuffer;
import static org.bytedeco.llvm.global.LLVM.LLVMGetBufferSize;
import static org.bytedeco.llvm.global.LLVM.LLVMGetBufferStart;
import static org.bytedeco.llvm.global.LLVM.LLVMGetFirstGlobal;
import static org.bytedeco.llvm.global.LLVM.LLVMGetFirstUse;
import static org.bytedeco.llvm.global.LLVM.LLVMGetNextGlobal;
import static org.bytedeco.llvm.global.LLVM.LLVMGetNextUse;
import static org.bytedeco.llvm.global.LLVM.LLVMGlobalGetValueType;
import static org.bytedeco.llvm.global.LLVM.LLVMSetInitializer;
import static org.bytedeco.llvm.global.LLVM.LLVMWriteBitcodeToMemoryBuffer;

import dev.mgpu.codegen.NativeModule;
import dev.mgpu.codegen.internal.llvm.Bitstream.Op;
import dev.mgpu.codegen.internal.llvm.Bitstream.Reader;
import dev.mgpu.codegen.internal.llvm.Bitstream.Record;
import dev.mgpu.codegen.internal.llvm.Bitstream.Sink;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bytedeco.llvm.LLVM.LLVMMemoryBufferRef;
import org.bytedeco.llvm.LLVM.LLVMUseRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * Bitcode of a module that embeds large byte arrays, byte for byte what LLVM writes, without LLVM's cost
 * for them: its writer holds a 64-bit integer per byte of such a constant while it writes its record (268 MB
 * for a binary of 32 MiB), and the whole file in memory twice. Here LLVM writes the module with each such
 * constant zeroed, and this writes that bitcode to a stream with the constant's record in place of the
 * zero's, encoded as LLVM encodes it; the blocks that follow move by whole words, so only the lengths of the
 * blocks around the record and the word offsets of the function bodies (in the symbol table, and the
 * table's own offset) change. A module laid out otherwise than this expects is left to LLVM.
 */
public final class BitcodeSplice {
    private static final int MODULE_BLOCK = 8;
    private static final int CONSTANTS_BLOCK = 11;
    private static final int SYMTAB_BLOCK = 14;
    private static final int BLOCKINFO_BLOCK = 0;
    private static final int SETBID = 1;
    private static final int GLOBALVAR = 7;
    private static final int FUNCTION = 8;
    private static final int ALIAS = 14;
    private static final int IFUNC = 15;
    private static final int SYMTAB_OFFSET = 13;
    private static final int SETTYPE = 1;
    private static final int NULL_CONSTANT = 2;
    private static final int STRING = 8;
    private static final int CSTRING = 9;
    private static final int FUNCTION_ENTRY = 3;

    private final byte[] src;
    private final List<Target> targets = new ArrayList<>();
    private final Map<Integer, List<List<Op>>> blockInfo = new HashMap<>();
    private final List<long[]> globals = new ArrayList<>();
    private int valuesBeforeConstants;
    private long moduleContent = -1;
    private long moduleWords;
    private long constantsContent = -1;
    private long constantsWords;
    private int constantsWidth;
    private long constantsEnd;
    private List<List<Op>> constantAbbrevs;
    private long symtabContent = -1;
    private long symtabWords;
    private int symtabWidth;
    private List<Record> symtab;
    private long symtabOffsetAt = -1;

    /** A constant written here: its global's place among the globals, its bytes, and its record's place. */
    private static final class Target {
        final int global;
        final IrWriter.Blob blob;
        Record zero;
        int abbrevId;
        long code;
        long elements;
        int elementBits;
        long bits;

        Target(int global, IrWriter.Blob blob) {
            this.global = global;
            this.blob = blob;
        }
    }

    private BitcodeSplice(byte[] src) {
        this.src = src;
    }

    /**
     * Writes the module's bitcode to {@code out}, with {@code blobs} (its {@link IrWriter#largeConstants})
     * written here; returns false, having written nothing, when LLVM must write it all.
     *
     * @param nm the module
     * @param blobs its large byte-array constants
     * @param out where the bitcode goes
     * @return whether it was written
     * @throws IOException if {@code out} fails
     */
    public static boolean write(NativeModule nm, List<IrWriter.Blob> blobs, OutputStream out) throws IOException {
        BitcodeSplice s = prepare(nm, blobs);
        if (s == null) {
            return false;
        }
        s.emit(out);
        return true;
    }

    /** LLVM's bitcode of the module with the blobs it may leave out zeroed, parsed; null if none may be. */
    private static BitcodeSplice prepare(NativeModule nm, List<IrWriter.Blob> blobs) {
        Map<Long, Integer> index = new HashMap<>();
        int n = 0;
        for (LLVMValueRef g = LLVMGetFirstGlobal(nm.module()); g != null && !g.isNull(); g = LLVMGetNextGlobal(g)) {
            index.put(g.address(), n++);
        }
        List<Target> zeroed = new ArrayList<>();
        byte[] bitcode;
        try {
            for (IrWriter.Blob b : blobs) {
                // Only a constant of one use, that leaves a zero of one use: else its record serves others too.
                if (uses(b.init()) != 1) {
                    continue;
                }
                LLVMValueRef zero = LLVMConstNull(LLVMGlobalGetValueType(b.global()));
                LLVMSetInitializer(b.global(), zero);
                if (uses(zero) != 1) {
                    LLVMSetInitializer(b.global(), b.init());
                    continue;
                }
                zeroed.add(new Target(index.get(b.global().address()), b));
            }
            if (zeroed.isEmpty()) {
                return null;
            }
            LLVMMemoryBufferRef buf = LLVMWriteBitcodeToMemoryBuffer(nm.module());
            try {
                long size = LLVMGetBufferSize(buf);
                bitcode = new byte[Math.toIntExact(size)];
                LLVMGetBufferStart(buf).capacity(size).get(bitcode);
            } finally {
                LLVMDisposeMemoryBuffer(buf);
            }
        } finally {
            for (Target t : zeroed) {
                LLVMSetInitializer(t.blob.global(), t.blob.init());
            }
        }
        BitcodeSplice s = new BitcodeSplice(bitcode);
        s.targets.addAll(zeroed);
        try {
            return s.parse() ? s : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static int uses(LLVMValueRef v) {
        int n = 0;
        for (LLVMUseRef u = LLVMGetFirstUse(v); u != null && !u.isNull(); u = LLVMGetNextUse(u)) {
            n++;
        }
        return n;
    }

    /** Reads the layout; false if it is not the one expected. */
    private boolean parse() {
        Reader r = new Reader(src);
        if (src.length < 8 || r.read(32) != 0xDEC04342L) {
            return false;
        }
        while (r.pos + 32 <= r.bits() && moduleContent < 0) {
            if (r.read(2) != Bitstream.ENTER_SUBBLOCK) {
                return false;
            }
            Bitstream.Block b = r.block();
            if (b.id() == MODULE_BLOCK) {
                moduleContent = b.content();
                moduleWords = b.words();
                module(r, b.width());
            }
            r.pos = b.end();
        }
        if (moduleContent < 0 || constantsContent < 0 || symtabOffsetAt >= 0 != symtabContent >= 0
                || symtabOffsetAt >= constantsContent) {
            return false;
        }
        for (Target t : targets) {
            long[] g = t.global < globals.size() ? globals.get(t.global) : null;
            if (g == null || g.length < 5 || t.zero == null) {
                return false;
            }
        }
        return plan();
    }

    private void module(Reader r, int width) {
        List<List<Op>> abbrevs = new ArrayList<>();
        while (true) {
            long at = r.pos;
            int id = (int) r.read(width);
            if (id == Bitstream.END_BLOCK) {
                return;
            } else if (id == Bitstream.DEFINE_ABBREV) {
                abbrevs.add(r.abbreviation());
            } else if (id == Bitstream.ENTER_SUBBLOCK) {
                Bitstream.Block b = r.block();
                if (b.id() == BLOCKINFO_BLOCK) {
                    blockInfo(r, b.width());
                } else if (b.id() == CONSTANTS_BLOCK && constantsContent < 0) {
                    constantsContent = b.content();
                    constantsWords = b.words();
                    constantsWidth = b.width();
                    constants(r, b.width());
                } else if (b.id() == SYMTAB_BLOCK && symtabContent < 0) {
                    symtabContent = b.content();
                    symtabWords = b.words();
                    symtabWidth = b.width();
                    symtab = records(r, b.width(), b.id());
                    if (symtab.stream().anyMatch(Record::blob) || constantsContent < 0) {
                        throw new IllegalStateException("a symbol table with a blob, or before the constants");
                    }
                }
                r.pos = b.end();
            } else {
                Record rec = r.record(id, at, abbrevs);
                int code = (int) rec.code();
                if (constantsContent < 0 && (code == GLOBALVAR || code == FUNCTION || code == ALIAS || code == IFUNC)) {
                    valuesBeforeConstants++;
                    if (code == GLOBALVAR) {
                        globals.add(rec.ops());
                    }
                } else if (code == SYMTAB_OFFSET) {
                    List<Op> a = rec.abbrev();
                    if (a == null || a.get(a.size() - 1).kind() != Bitstream.FIXED || a.get(a.size() - 1).value() != 32) {
                        throw new IllegalStateException("symbol table offset not in a 32-bit field");
                    }
                    symtabOffsetAt = rec.end() - 32;
                }
            }
        }
    }

    /** The block info: the abbreviations it defines, by the block they serve. */
    private void blockInfo(Reader r, int width) {
        List<List<Op>> current = null;
        for (Record rec : records(r, width, BLOCKINFO_BLOCK)) {
            if (rec.abbrevId() == Bitstream.DEFINE_ABBREV) {
                current.add(abbreviationAt(rec, width));
            } else if (rec.abbrevId() == Bitstream.UNABBREV_RECORD && rec.code() == SETBID) {
                current = blockInfo.computeIfAbsent((int) rec.ops()[0], k -> new ArrayList<>());
            }
        }
    }

    /** The abbreviation that {@code rec}, a DEFINE_ABBREV read with ids of {@code width} bits, defines. */
    private List<Op> abbreviationAt(Record rec, int width) {
        Reader a = new Reader(src);
        a.pos = rec.start() + width;
        return a.abbreviation();
    }

    /** The records of a block, its abbreviations' definitions among them (with a null abbreviation). */
    private List<Record> records(Reader r, int width, long block) {
        List<List<Op>> abbrevs = new ArrayList<>(blockInfo.getOrDefault((int) block, List.of()));
        List<Record> out = new ArrayList<>();
        while (true) {
            long at = r.pos;
            int id = (int) r.read(width);
            if (id == Bitstream.END_BLOCK) {
                out.add(new Record(id, null, -1, new long[0], at, at, false));
                return out;
            } else if (id == Bitstream.DEFINE_ABBREV) {
                abbrevs.add(r.abbreviation());
                out.add(new Record(id, null, -1, new long[0], at, r.pos, false));
            } else if (id == Bitstream.ENTER_SUBBLOCK) {
                throw new IllegalStateException("unexpected nested block");
            } else {
                out.add(r.record(id, at, abbrevs));
            }
        }
    }

    /** Finds each target's zero among the module's constants. */
    private void constants(Reader r, int width) {
        List<Record> records = records(r, width, CONSTANTS_BLOCK);
        constantAbbrevs = new ArrayList<>(blockInfo.getOrDefault(CONSTANTS_BLOCK, List.of()));
        long type = -1;
        long value = valuesBeforeConstants;
        boolean afterTarget = false;
        for (Record rec : records) {
            if (rec.abbrevId() == Bitstream.END_BLOCK) {
                constantsEnd = rec.start();
            } else if (rec.abbrevId() == Bitstream.DEFINE_ABBREV) {
                constantAbbrevs.add(abbreviationAt(rec, width));
            } else if (rec.code() == SETTYPE) {
                type = rec.ops()[0];
            } else {
                if (afterTarget && rec.blob()) {
                    throw new IllegalStateException("a blob after a spliced constant");
                }
                for (Target t : targets) {
                    long[] g = t.global < globals.size() ? globals.get(t.global) : null;
                    if (g != null && g.length >= 5 && g[4] == value + 1) {
                        if (rec.code() != NULL_CONSTANT || g[2] != type || t.zero != null) {
                            throw new IllegalStateException("the zeroed constant is not where it was expected");
                        }
                        t.zero = rec;
                        afterTarget = true;
                    }
                }
                value++;
            }
        }
    }

    /** Chooses each target's encoding, as LLVM's writer does, and counts its bits. */
    private boolean plan() {
        targets.sort((a, b) -> Long.compare(a.zero.start(), b.zero.start()));
        int string8 = abbrev(STRING, Bitstream.FIXED, 8);
        int cstring7 = abbrev(CSTRING, Bitstream.FIXED, 7);
        int cstring6 = abbrev(CSTRING, Bitstream.CHAR6, 0);
        if (string8 < 0 || cstring7 < 0 || cstring6 < 0) {
            return false;
        }
        for (Target t : targets) {
            Scan s = new Scan(t.blob);
            t.elements = s.cString ? t.blob.size() - 1 : t.blob.size();
            t.code = s.cString ? CSTRING : STRING;
            long head = constantsWidth + Bitstream.vbrBits(t.elements, 6);
            if (!s.cString) {
                t.abbrevId = string8;
                t.elementBits = 8;
            } else if (s.char6) {
                t.abbrevId = cstring6;
                t.elementBits = 6;
            } else if (s.sevenBit) {
                t.abbrevId = cstring7;
                t.elementBits = 7;
            } else {
                t.abbrevId = Bitstream.UNABBREV_RECORD;
                head += Bitstream.vbrBits(CSTRING, 6);
            }
            t.bits = head + (t.elementBits > 0 ? t.elementBits * t.elements : s.vbr6Bits);
        }
        return true;
    }

    /** The id of the constants block's abbreviation {@code [code, array of (kind, width)]}, or -1. */
    private int abbrev(int code, int kind, long width) {
        for (int i = 0; i < constantAbbrevs.size(); i++) {
            List<Op> a = constantAbbrevs.get(i);
            if (a.size() == 3 && a.get(0).equals(new Op(Bitstream.LITERAL, code)) && a.get(1).kind() == Bitstream.ARRAY
                    && a.get(2).equals(new Op(kind, width))) {
                return i + 4;
            }
        }
        return -1;
    }

    /** What LLVM's writer finds in a constant's bytes to choose its encoding. */
    private static final class Scan {
        boolean cString;
        boolean char6 = true;
        boolean sevenBit = true;
        long vbr6Bits;

        Scan(IrWriter.Blob b) {
            long zeros = 0;
            int last = -1;
            byte[] chunk = new byte[1 << 16];
            for (long off = 0; off < b.size(); off += chunk.length) {
                int n = (int) Math.min(chunk.length, b.size() - off);
                b.data().position(off).get(chunk, 0, n);
                for (int i = 0; i < n; i++) {
                    int v = chunk[i] & 0xFF;
                    zeros += v == 0 ? 1 : 0;
                    char6 &= Bitstream.CHAR6_CODE[v] >= 0;
                    sevenBit &= v < 0x80;
                    vbr6Bits += v < 32 ? 6 : 12;
                    last = v;
                }
            }
            b.data().position(0);
            cString = last == 0 && zeros == 1;
            if (cString) {
                // The elements are the bytes before the NUL, which counted as char6-less and as 6 bits.
                vbr6Bits -= 6;
                char6 = char6Before(b);
            }
        }

        private static boolean char6Before(IrWriter.Blob b) {
            byte[] chunk = new byte[1 << 16];
            for (long off = 0; off < b.size() - 1; off += chunk.length) {
                int n = (int) Math.min(chunk.length, b.size() - 1 - off);
                b.data().position(off).get(chunk, 0, n);
                for (int i = 0; i < n; i++) {
                    if (Bitstream.CHAR6_CODE[chunk[i] & 0xFF] < 0) {
                        b.data().position(0);
                        return false;
                    }
                }
            }
            b.data().position(0);
            return true;
        }
    }

    /** Writes the bitcode with the targets' records in place of their zeros. */
    private void emit(OutputStream out) throws IOException {
        long contentBits = constantsEnd - constantsContent + constantsWidth;
        for (Target t : targets) {
            contentBits += t.bits - (t.zero.end() - t.zero.start());
        }
        long words = (contentBits + 31) / 32;
        long moved = words - constantsWords;
        byte[] patched = src.clone();
        Bitstream.set32(patched, constantsContent - 32, words);
        byte[] table = null;
        long tableBits = 0;
        long tableWords = 0;
        if (symtabContent >= 0) {
            Bitstream.set32(patched, symtabOffsetAt, Bitstream.bits(src, symtabOffsetAt + 32, 32) + moved);
            ByteArrayOutputStream t = new ByteArrayOutputStream();
            Sink ts = new Sink(t);
            symbolTable(ts, moved);
            tableBits = ts.written;
            ts.finish();
            table = t.toByteArray();
            tableWords = tableBits / 32;
        }
        Bitstream.set32(patched, moduleContent - 32, moduleWords + moved + (table == null ? 0 : tableWords - symtabWords));
        Sink s = new Sink(out);
        long from = 0;
        for (Target t : targets) {
            s.copy(patched, from, t.zero.start());
            record(s, t);
            from = t.zero.end();
        }
        s.copy(patched, from, constantsEnd);
        s.write(Bitstream.END_BLOCK, constantsWidth);
        s.align32();
        long after = constantsContent + constantsWords * 32;
        if (table != null) {
            s.copy(patched, after, symtabContent - 32);
            s.write(tableWords, 32);
            s.copy(table, 0, tableBits);
            after = symtabContent + symtabWords * 32;
        }
        s.copy(patched, after, patched.length * 8L);
        s.finish();
        if (s.written != src.length * 8L + 32 * (moved + (table == null ? 0 : tableWords - symtabWords))) {
            throw new IllegalStateException("bitcode of " + s.written + " bits, not as planned");
        }
    }

    /** The module's symbol table, each function body's word offset moved by {@code moved} words. */
    private void symbolTable(Sink s, long moved) throws IOException {
        for (Record rec : symtab) {
            if (rec.abbrevId() == Bitstream.END_BLOCK) {
                s.write(Bitstream.END_BLOCK, symtabWidth);
                s.align32();
            } else if (rec.abbrevId() == Bitstream.DEFINE_ABBREV || rec.code() != FUNCTION_ENTRY) {
                s.copy(src, rec.start(), rec.end());
            } else {
                long[] ops = rec.ops().clone();
                ops[1] += moved;
                writeRecord(s, rec, ops);
            }
        }
    }

    /** Writes a record as {@code rec} was written (its abbreviation, if any), with {@code ops} for its operands. */
    private void writeRecord(Sink s, Record rec, long[] ops) throws IOException {
        s.write(rec.abbrevId(), symtabWidth);
        if (rec.abbrev() == null) {
            s.vbr(rec.code(), 6);
            s.vbr(ops.length, 6);
            for (long v : ops) {
                s.vbr(v, 6);
            }
            return;
        }
        long[] values = new long[ops.length + 1];
        values[0] = rec.code();
        System.arraycopy(ops, 0, values, 1, ops.length);
        int next = 0;
        List<Op> a = rec.abbrev();
        for (int i = 0; i < a.size(); i++) {
            Op op = a.get(i);
            if (op.kind() == Bitstream.ARRAY) {
                Op element = a.get(++i);
                s.vbr(values.length - next, 6);
                while (next < values.length) {
                    scalar(s, element, values[next++]);
                }
            } else {
                scalar(s, op, values[next++]);
            }
        }
    }

    private static void scalar(Sink s, Op op, long v) throws IOException {
        switch (op.kind()) {
            case Bitstream.LITERAL:
                break;
            case Bitstream.FIXED:
                s.write(v, (int) op.value());
                break;
            case Bitstream.VBR:
                s.vbr(v, (int) op.value());
                break;
            case Bitstream.CHAR6:
                s.write(Bitstream.CHAR6_CODE[(int) v], 6);
                break;
            default:
                throw new IllegalStateException("Invalid operand encoding in the symbol table: " + op.kind());
        }
    }

    /** Writes a target's record, its bytes read from LLVM's constant a chunk at a time. */
    private void record(Sink s, Target t) throws IOException {
        s.write(t.abbrevId, constantsWidth);
        if (t.abbrevId == Bitstream.UNABBREV_RECORD) {
            s.vbr(t.code, 6);
        }
        s.vbr(t.elements, 6);
        byte[] chunk = new byte[1 << 16];
        for (long off = 0; off < t.elements; off += chunk.length) {
            int n = (int) Math.min(chunk.length, t.elements - off);
            t.blob.data().position(off).get(chunk, 0, n);
            if (t.elementBits == 8) {
                s.bytes(chunk, n);
            } else {
                for (int i = 0; i < n; i++) {
                    int v = chunk[i] & 0xFF;
                    if (t.elementBits == 6) {
                        s.write(Bitstream.CHAR6_CODE[v], 6);
                    } else if (t.elementBits == 7) {
                        s.write(v, 7);
                    } else {
                        s.vbr(v, 6);
                    }
                }
            }
        }
        t.blob.data().position(0);
    }
}
