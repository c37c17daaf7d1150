package dev.mgpu.codegen.internal.llvm;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * LLVM's bitstream container, as far as {@link BitcodeSplice} reads and writes it: bits least significant
 * first, variable-width (VBR) numbers, abbreviations, and blocks whose length is counted in 32-bit words.
 */
final class Bitstream {
    static final int END_BLOCK = 0;
    static final int ENTER_SUBBLOCK = 1;
    static final int DEFINE_ABBREV = 2;
    static final int UNABBREV_RECORD = 3;

    static final int LITERAL = 0;
    static final int FIXED = 1;
    static final int VBR = 2;
    static final int ARRAY = 3;
    static final int CHAR6 = 4;
    static final int BLOB = 5;

    private static final String CHAR6_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._";
    /** Per byte value: its Char6 code, or -1. */
    static final int[] CHAR6_CODE = new int[256];

    static {
        java.util.Arrays.fill(CHAR6_CODE, -1);
        for (int i = 0; i < CHAR6_ALPHABET.length(); i++) {
            CHAR6_CODE[CHAR6_ALPHABET.charAt(i)] = i;
        }
    }

    private Bitstream() {
    }

    /** One operand of an abbreviation: its encoding, and its value (a literal) or width (fixed, VBR). */
    record Op(int kind, long value) {
    }

    /**
     * A record as read: the abbreviation it was written with (its id, and its operands; null when
     * unabbreviated), its code and operands, where it starts and ends in bits, and whether it holds a blob.
     */
    record Record(int abbrevId, List<Op> abbrev, long code, long[] ops, long start, long end, boolean blob) {
    }

    /** A block: its id, the width of its abbreviation ids, its length in words, and where its content starts. */
    record Block(long id, int width, long words, long content) {
        long end() {
            return content + words * 32;
        }
    }

    /** The bits of a byte array, read from a position. */
    static final class Reader {
        final byte[] bytes;
        long pos;

        Reader(byte[] bytes) {
            this.bytes = bytes;
        }

        long bits() {
            return bytes.length * 8L;
        }

        long read(int width) {
            return Bitstream.bits(bytes, pos += width, width);
        }

        long vbr(int width) {
            long hi = 1L << (width - 1);
            long v = 0;
            for (int shift = 0; ; shift += width - 1) {
                long chunk = read(width);
                if (shift > 63) {
                    throw new IllegalStateException("VBR number too long at bit " + pos);
                }
                v |= (chunk & (hi - 1)) << shift;
                if ((chunk & hi) == 0) {
                    return v;
                }
            }
        }

        void align32() {
            pos = (pos + 31) & ~31L;
        }

        /** The header of a block, its ENTER_SUBBLOCK id already read; the position is then its content. */
        Block block() {
            long id = vbr(8);
            int width = (int) vbr(4);
            align32();
            long words = read(32);
            return new Block(id, width, words, pos);
        }

        /** A DEFINE_ABBREV's operands, its id already read. */
        List<Op> abbreviation() {
            int n = (int) vbr(5);
            List<Op> ops = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                if (read(1) == 1) {
                    ops.add(new Op(LITERAL, vbr(8)));
                    continue;
                }
                int kind = (int) read(3);
                if (kind == FIXED || kind == VBR) {
                    long width = vbr(5);
                    ops.add(width == 0 ? new Op(LITERAL, 0) : new Op(kind, width));
                } else if (kind == ARRAY || kind == CHAR6 || kind == BLOB) {
                    ops.add(new Op(kind, 0));
                } else {
                    throw new IllegalStateException("Invalid abbreviation operand encoding " + kind);
                }
            }
            return ops;
        }

        /** The record whose abbreviation id {@code id} was read at {@code start}; {@code abbrevs} from id 4. */
        Record record(int id, long start, List<List<Op>> abbrevs) {
            if (id == UNABBREV_RECORD) {
                long code = vbr(6);
                long[] ops = new long[(int) vbr(6)];
                for (int i = 0; i < ops.length; i++) {
                    ops[i] = vbr(6);
                }
                return new Record(id, null, code, ops, start, pos, false);
            }
            List<Op> abbrev = abbrevs.get(id - 4);
            List<Long> values = new ArrayList<>();
            boolean blob = false;
            for (int i = 0; i < abbrev.size(); i++) {
                Op op = abbrev.get(i);
                if (op.kind() == ARRAY) {
                    Op element = abbrev.get(++i);
                    for (long n = vbr(6); n > 0; n--) {
                        values.add(scalar(element));
                    }
                } else if (op.kind() == BLOB) {
                    long n = vbr(6);
                    align32();
                    pos += n * 8;
                    align32();
                    blob = true;
                } else {
                    values.add(scalar(op));
                }
            }
            long[] ops = new long[values.size() - 1];
            for (int i = 0; i < ops.length; i++) {
                ops[i] = values.get(i + 1);
            }
            return new Record(id, abbrev, values.get(0), ops, start, pos, blob);
        }

        private long scalar(Op op) {
            switch (op.kind()) {
                case LITERAL:
                    return op.value();
                case FIXED:
                    return read((int) op.value());
                case VBR:
                    return vbr((int) op.value());
                case CHAR6:
                    return CHAR6_ALPHABET.charAt((int) read(6));
                default:
                    throw new IllegalStateException("Invalid scalar operand encoding " + op.kind());
            }
        }
    }

    /** The {@code width} bits (at most 57) of {@code bytes} that end at bit {@code end}. */
    static long bits(byte[] bytes, long end, int width) {
        long start = end - width;
        long v = 0;
        int first = (int) (start >>> 3);
        int last = (int) ((end - 1) >>> 3);
        for (int i = last; i >= first; i--) {
            v = v << 8 | (bytes[i] & 0xFF);
        }
        v >>>= start & 7;
        return width == 64 ? v : v & ((1L << width) - 1);
    }

    /** Sets the 32 bits of {@code bytes} from bit {@code at} to {@code value}. */
    static void set32(byte[] bytes, long at, long value) {
        for (int i = 0; i < 32; i++) {
            int b = (int) ((at + i) >>> 3);
            int bit = (int) ((at + i) & 7);
            bytes[b] = (byte) ((bytes[b] & ~(1 << bit)) | (int) ((value >>> i) & 1) << bit);
        }
    }

    /** How many bits {@code v} takes as a VBR number of {@code width}-bit chunks. */
    static long vbrBits(long v, int width) {
        long chunks = 1;
        while ((v >>>= width - 1) != 0) {
            chunks++;
        }
        return chunks * width;
    }

    /** Bits written to a stream through a buffer of its own, least significant first. */
    static final class Sink {
        private final OutputStream out;
        private final byte[] buf = new byte[1 << 16];
        private int filled;
        private long pending;
        private int pendingBits;
        /** Bits written so far. */
        long written;

        Sink(OutputStream out) {
            this.out = out;
        }

        /** Writes the low {@code width} bits (at most 32) of {@code v}. */
        void write(long v, int width) throws IOException {
            pending |= (v & ((1L << width) - 1)) << pendingBits;
            pendingBits += width;
            written += width;
            while (pendingBits >= 8) {
                put((byte) pending);
                pending >>>= 8;
                pendingBits -= 8;
            }
        }

        void vbr(long v, int width) throws IOException {
            long hi = 1L << (width - 1);
            while (Long.compareUnsigned(v, hi) >= 0) {
                write((v & (hi - 1)) | hi, width);
                v >>>= width - 1;
            }
            write(v, width);
        }

        void align32() throws IOException {
            int pad = (int) (-written & 31);
            if (pad > 0) {
                write(0, pad);
            }
        }

        /** Writes bits {@code [from, to)} of {@code src}. */
        void copy(byte[] src, long from, long to) throws IOException {
            for (long p = from; p < to; ) {
                int n = (int) Math.min(32, to - p);
                p += n;
                write(bits(src, p, n), n);
            }
        }

        /** Writes {@code len} bytes of {@code src}, each as 8 bits. */
        void bytes(byte[] src, int len) throws IOException {
            int shift = pendingBits;
            long carry = pending;
            for (int i = 0; i < len; i++) {
                int v = src[i] & 0xFF;
                if (filled == buf.length) {
                    flush();
                }
                buf[filled++] = (byte) (carry | (long) v << shift);
                carry = shift == 0 ? 0 : v >>> (8 - shift);
            }
            pending = carry;
            written += 8L * len;
        }

        private void put(byte b) throws IOException {
            if (filled == buf.length) {
                flush();
            }
            buf[filled++] = b;
        }

        private void flush() throws IOException {
            out.write(buf, 0, filled);
            filled = 0;
        }

        /** Writes what is left, the last byte padded with zeros, and flushes. */
        void finish() throws IOException {
            if (pendingBits > 0) {
                written += 8 - pendingBits;
                put((byte) pending);
                pending = 0;
                pendingBits = 0;
            }
            flush();
            out.flush();
        }
    }
}
