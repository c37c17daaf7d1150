package dev.mgpu.ir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;

/**
 * A buffered byte sink that writes MLIR text: plain text, escaped strings, types and attributes. Strings
 * are written byte by byte from their {@code byte[]}, never through {@link String}, so a 32 MiB blob costs
 * no more than its text.
 */
public final class AsmOutput implements AutoCloseable {
    private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

    /**
     * Per byte value, its form in a string literal: printable ASCII as itself but {@code "} and {@code \},
     * {@code \} as {@code \\}, every other byte as {@code \XX}; the characters in the low three bytes, first
     * lowest, and their count in the top one.
     */
    private static final int[] ESCAPED = new int[256];

    static {
        for (int c = 0; c < 256; c++) {
            ESCAPED[c] = c == '\\' ? '\\' | '\\' << 8 | 2 << 24
                    : c >= 0x20 && c < 0x7F && c != '"' ? c | 1 << 24
                    : '\\' | HEX[c >> 4] << 8 | HEX[c & 15] << 16 | 3 << 24;
        }
    }

    /**
     * A byte's form in a string literal, as MLIR and LLVM IR write one alike: printable ASCII as itself but
     * {@code "} and {@code \}, {@code \} as {@code \\}, every other byte as {@code \XX}.
     *
     * @param b the byte, 0 to 255
     * @return its characters in the low three bytes, the first lowest, and their count in the top one
     */
    public static int escaped(int b) {
        return ESCAPED[b];
    }

    private final OutputStream out;
    private byte[] buf = new byte[1 << 16];
    private int pos;

    /**
     * Creates an output that writes to {@code out} through its own buffer.
     *
     * @param out the stream the text goes to
     */
    public AsmOutput(OutputStream out) {
        this.out = out;
    }

    /**
     * Renders one attribute to text.
     *
     * @param a the attribute
     * @return its MLIR text
     */
    public static String render(Attribute a) {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        try (AsmOutput o = new AsmOutput(bos)) {
            o.attr(a);
        }
        return bos.toString(StandardCharsets.UTF_8);
    }

    private void ensure(int n) {
        if (pos + n > buf.length) {
            flushBuffer();
            if (n > buf.length) {
                buf = new byte[n];
            }
        }
    }

    private void flushBuffer() {
        try {
            out.write(buf, 0, pos);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        pos = 0;
    }

    /**
     * Writes {@code c}, which must be ASCII, as one byte.
     *
     * @param c the character
     * @return this output
     */
    public AsmOutput write(char c) {
        ensure(1);
        buf[pos++] = (byte) c;
        return this;
    }

    /**
     * Writes {@code s} as UTF-8.
     *
     * @param s the text
     * @return this output
     */
    public AsmOutput write(String s) {
        int n = s.length();
        ensure(n * 3);
        // The buffer and position in locals: the quick compiler keeps them in registers through the loop.
        byte[] out = buf;
        int p = pos;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                out[p++] = (byte) c;
            } else {
                byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                System.arraycopy(b, 0, out, p, b.length);
                p += b.length;
            }
        }
        pos = p;
        return this;
    }

    /**
     * Writes bytes as they are.
     *
     * @param bytes the bytes
     * @return this output
     */
    public AsmOutput raw(byte[] bytes) {
        ensure(bytes.length);
        System.arraycopy(bytes, 0, buf, pos, bytes.length);
        pos += bytes.length;
        return this;
    }

    /**
     * Writes {@code v} in decimal.
     *
     * @param v the number
     * @return this output
     */
    public AsmOutput write(long v) {
        return write(Long.toString(v));
    }

    /**
     * Writes {@code "..."}: {@code \} as {@code \\}, and {@code "} and every byte that is not printable ASCII as {@code \XX}.
     *
     * @param bytes the string's bytes
     * @return this output
     */
    public AsmOutput quoted(byte[] bytes) {
        write('"');
        int i = 0;
        while (i < bytes.length) {
            int chunk = Math.min(bytes.length - i, 1 << 14);
            ensure(chunk * 3 + 1);
            pos = escape(bytes, i, i + chunk, buf, pos);
            i += chunk;
        }
        return write('"');
    }

    /**
     * Writes the forms of {@code in[from, to)} in a string literal ({@link #escaped(int)}) into {@code out} from
     * {@code at}, which must leave {@code 3 * (to - from) + 1} bytes of room: one byte past the last form may be
     * written over.
     *
     * @param in the bytes
     * @param from the first byte's index
     * @param to the index past the last byte
     * @param out where the characters go
     * @param at the index in {@code out} of the first character
     * @return the index in {@code out} past the last character
     */
    public static int escape(byte[] in, int from, int to, byte[] out, int at) {
        if (out.length - at < 3L * (to - from) + 1) {
            throw new IndexOutOfBoundsException("no room for " + (to - from) + " escaped bytes at " + at);
        }
        if (to - from >= Wide.MIN_LENGTH) {
            return Wide.escape(in, from, to, out, at);
        }
        int p = at;
        for (int i = from; i < to; i++) {
            // Three stores and no branch: an embedded binary's bytes are random to a branch predictor
            // (binaries.mlir to MLIR: 0.70 s to 0.61 s, paired medians of 7).
            int e = ESCAPED[in[i] & 0xFF];
            out[p] = (byte) e;
            out[p + 1] = (byte) (e >> 8);
            out[p + 2] = (byte) (e >> 16);
            p += e >>> 24;
        }
        return p;
    }

    /**
     * Long strings' forms each written as one four-byte store (its unused top byte overwritten by the next form):
     * with the quick compiler, 16 MiB of random bytes in 20 ms instead of 31, the first time 35 ms instead of 58.
     * A class of its own, so that a run that prints no long string does not make the view's method handles (some
     * 9 ms the first time in a JVM).
     */
    private static final class Wide {
        static final int MIN_LENGTH = 1024;
        private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

        static int escape(byte[] in, int from, int to, byte[] out, int at) {
            int p = at;
            for (int i = from; i < to; i++) {
                int e = ESCAPED[in[i] & 0xFF];
                INT.set(out, p, e);
                p += e >>> 24;
            }
            return p;
        }
    }

    /**
     * Writes the UTF-8 bytes of {@code s} as {@link #quoted(byte[])} does.
     *
     * @param s the string
     * @return this output
     */
    public AsmOutput quoted(String s) {
        return quoted(s.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Writes a symbol name: bare when it is a valid identifier, else quoted.
     *
     * @param name the symbol's name without {@code @}
     * @return this output
     */
    public AsmOutput symbol(String name) {
        write('@');
        if (isBareIdentifier(name)) {
            return write(name);
        }
        return quoted(name);
    }

    static boolean isBareIdentifier(String s) {
        if (s.isEmpty()) {
            return false;
        }
        // MLIR's bare-id: (letter | _) (letter | digit | _ | $ | .)*, letters and digits ASCII; anything else
        // (a '-', say) is a string, which upstream's parser reads only quoted.
        char c0 = s.charAt(0);
        if (!(isAsciiLetter(c0) || c0 == '_')) {
            return false;
        }
        for (int i = 1; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(isAsciiLetter(c) || c >= '0' && c <= '9' || c == '_' || c == '$' || c == '.')) {
                return false;
            }
        }
        return true;
    }

    private static boolean isAsciiLetter(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z';
    }

    /**
     * Writes a type in MLIR syntax.
     *
     * @param t the type
     * @return this output
     */
    public AsmOutput type(Type t) {
        return write(t.toString());
    }

    /**
     * Writes an attribute in MLIR syntax.
     *
     * @param a the attribute
     * @return this output
     */
    public AsmOutput attr(Attribute a) {
        if (a instanceof Attribute.IntegerAttr i) {
            if (i.type().equals(Type.I1)) {
                return write(i.value() != 0 ? "true" : "false");
            }
            return write(i.value()).write(" : ").type(i.type());
        } else if (a instanceof Attribute.FloatAttr f) {
            return write(FloatBits.format(f.value(), (Type.FloatType) f.type())).write(" : ").type(f.type());
        } else if (a instanceof Attribute.StringAttr s) {
            return quoted(s.bytes());
        } else if (a instanceof Attribute.ArrayAttr arr) {
            write('[');
            for (int k = 0; k < arr.size(); k++) {
                if (k > 0) {
                    write(", ");
                }
                // In an array, as upstream prints it, an i64 integer or a decimal f64 float goes without its
                // type, which is what the parser assumes there (a float in hexadecimal keeps it).
                Attribute e = arr.get(k);
                String decimal = e instanceof Attribute.FloatAttr f && f.type().equals(Type.F64)
                        ? FloatBits.format(f.value(), (Type.FloatType) f.type()) : null;
                if (e instanceof Attribute.IntegerAttr i && i.type().equals(Type.I64)) {
                    write(i.value());
                } else if (decimal != null && !decimal.contains("0x")) {
                    write(decimal);
                } else {
                    attr(e);
                }
            }
            return write(']');
        } else if (a instanceof Attribute.DictionaryAttr d) {
            return dictionary(d.entries());
        } else if (a instanceof Attribute.SymbolRefAttr s) {
            symbol(s.root());
            for (String n : s.nested()) {
                write("::");
                symbol(n);
            }
            return this;
        } else if (a instanceof Attribute.DenseArrayAttr d) {
            write("array<").type(d.elementType());
            for (int k = 0; k < d.size(); k++) {
                write(k == 0 ? ": " : ", ").write(d.get(k));
            }
            return write('>');
        } else if (a instanceof Attribute.StridedLayoutAttr s) {
            write("strided<[");
            long[] st = s.strides();
            for (int k = 0; k < st.length; k++) {
                if (k > 0) {
                    write(", ");
                }
                dim(st[k]);
            }
            write(']');
            if (s.offset() != 0) {
                write(", offset: ");
                dim(s.offset());
            }
            return write('>');
        } else if (a instanceof Attribute.DenseElementsAttr d) {
            return write(dense(d)).write(" : ").type(d.type());
        } else if (a instanceof Attribute.DenseResourceAttr r) {
            write("dense_resource<").write(r.handle()).write("> : ");
            return type(r.type());
        } else if (a instanceof DialectAttribute d) {
            d.print(this);
            return this;
        } else if (a instanceof Attribute.UnitAttr) {
            return write("unit");
        } else if (a instanceof Attribute.TypeAttr t) {
            return type(t.type());
        }
        throw new IllegalStateException("no text form for attribute " + a.getClass().getName());
    }

    /**
     * The text of {@code dense<...>} without its type, as upstream prints it: one element for a splat, else
     * lists nested as the shape is; more than 100 elements (not of i1) as a hexadecimal string of their
     * little-endian bytes.
     *
     * @param d the attribute
     * @return its text
     */
    public static String dense(Attribute.DenseElementsAttr d) {
        StringBuilder sb = new StringBuilder("dense<");
        Type e = d.type().elementType();
        if (d.count() == 0) {
            return "dense<>";
        } else if (d.isSplat()) {
            denseElement(sb, d.get(0));
        } else if (d.count() > 100 && e.equals(Type.I1)) {
            // Bits, packed from the low bit of the first byte.
            sb.append("\"0x");
            for (long k = 0; k < d.count(); k += 8) {
                int b = 0;
                for (int j = 0; j < 8 && k + j < d.count(); j++) {
                    b |= (int) (d.bitsOf(k + j) & 1) << j;
                }
                sb.append(String.format(Locale.ROOT, "%02X", b));
            }
            sb.append('"');
        } else if (d.count() > 100) {
            int bytes = e instanceof Type.FloatType f ? f.width() / 8
                    : e instanceof Type.IntegerType i ? (i.width() + 7) / 8 : 8;
            sb.append("\"0x");
            for (long k = 0; k < d.count(); k++) {
                long bits = d.bitsOf(k);
                if (e instanceof Type.IntegerType it && it.width() < 64) {
                    bits &= (1L << it.width()) - 1; // the value's own bits, not its sign extension
                }
                for (int b = 0; b < bytes; b++) {
                    sb.append(String.format(Locale.ROOT, "%02X", (bits >>> (8 * b)) & 0xFF));
                }
            }
            sb.append('"');
        } else {
            denseList(sb, d, 0, 0, d.count());
        }
        return sb.append('>').toString();
    }

    private static void denseList(StringBuilder sb, Attribute.DenseElementsAttr d, int dim, long first, long count) {
        long[] shape = d.type().shape();
        if (dim == shape.length) {
            denseElement(sb, d.get(first));
            return;
        }
        long inner = shape[dim] == 0 ? 0 : count / shape[dim];
        sb.append('[');
        for (long k = 0; k < shape[dim]; k++) {
            if (k > 0) {
                sb.append(", ");
            }
            denseList(sb, d, dim + 1, first + k * inner, inner);
        }
        sb.append(']');
    }

    private static void denseElement(StringBuilder sb, Attribute a) {
        if (a instanceof Attribute.FloatAttr f) {
            sb.append(FloatBits.format(f.value(), (Type.FloatType) f.type()));
        } else {
            Attribute.IntegerAttr i = (Attribute.IntegerAttr) a;
            sb.append(i.type().equals(Type.I1) ? (i.value() != 0 ? "true" : "false") : Long.toString(i.value()));
        }
    }

    /**
     * Writes {@code {a = 1 : i64, b}}; unit entries print as bare names.
     *
     * @param entries the entries, written sorted by name
     * @return this output
     */
    public AsmOutput dictionary(Map<String, Attribute> entries) {
        write('{');
        boolean first = true;
        for (Map.Entry<String, Attribute> e : new java.util.TreeMap<>(entries).entrySet()) {
            if (!first) {
                write(", ");
            }
            first = false;
            attrName(e.getKey());
            if (!(e.getValue() instanceof Attribute.UnitAttr)) {
                write(" = ").attr(e.getValue());
            }
        }
        return write('}');
    }

    private void attrName(String name) {
        if (isBareIdentifier(name)) {
            write(name);
        } else {
            quoted(name);
        }
    }

    private void dim(long v) {
        if (v == Type.DYNAMIC) {
            write('?');
        } else {
            write(v);
        }
    }

    /** Writes the buffered bytes through; does not close the underlying stream. */
    public void flush() {
        flushBuffer();
        try {
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        flush();
    }

    /**
     * Starts {@code #name<k = v, ...>}, for dialect attributes whose parameters have defaults.
     *
     * @param name the attribute's name, with its {@code #}
     * @return the writer of the parameters; {@link Parameters#close()} ends the attribute
     */
    public Parameters parameters(String name) {
        return new Parameters(this, name);
    }

    /**
     * Writes {@code #name<k = v, ...>}, leaving out parameters equal to their default, and the brackets
     * when every parameter is left out.
     */
    public static final class Parameters {
        private final AsmOutput out;
        private boolean open;

        Parameters(AsmOutput out, String name) {
            this.out = out;
            out.write(name);
        }

        private void sep(String key) {
            out.write(open ? ", " : "<");
            open = true;
            out.write(key).write(" = ");
        }

        /**
         * An integer parameter, written unless it equals {@code dflt}.
         *
         * @param key the parameter's name
         * @param v its value
         * @param dflt its default
         * @return this writer
         */
        public Parameters integer(String key, int v, int dflt) {
            if (v != dflt) {
                sep(key);
                out.write(v);
            }
            return this;
        }

        /**
         * A string parameter, written unless it equals {@code dflt}.
         *
         * @param key the parameter's name
         * @param v its value, written quoted
         * @param dflt its default
         * @return this writer
         */
        public Parameters string(String key, String v, String dflt) {
            if (!v.equals(dflt)) {
                sep(key);
                out.quoted(v);
            }
            return this;
        }

        /**
         * An attribute parameter, written unless it is null.
         *
         * @param key the parameter's name
         * @param v its value, or null
         * @return this writer
         */
        public Parameters attr(String key, Attribute v) {
            if (v != null) {
                sep(key);
                out.attr(v);
            }
            return this;
        }

        /**
         * Closes the brackets, if any were opened.
         *
         * @return the output written to
         */
        public AsmOutput close() {
            return open ? out.write('>') : out;
        }
    }
}
