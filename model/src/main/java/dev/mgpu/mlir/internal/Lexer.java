package dev.mgpu.mlir.internal;

import dev.mgpu.ir.Location;
import dev.mgpu.ir.MgpuException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Splits MLIR text into tokens, one at a time, straight from the input bytes. The current token is held
 * in fields (kind, start, end) so that lexing allocates nothing; line starts are recorded as newlines
 * are skipped, so any offset maps back to line:column.
 */
public final class Lexer {
    public static final int EOF = 0;
    public static final int BARE_ID = 1;
    public static final int PERCENT_ID = 2;
    public static final int CARET_ID = 3;
    public static final int AT_ID = 4;
    public static final int HASH_ID = 5;
    public static final int BANG_ID = 6;
    public static final int INTEGER = 7;
    public static final int FLOAT = 8;
    public static final int STRING = 9;
    public static final int PUNCT = 10;
    public static final int ARROW = 11;
    public static final int COLON_COLON = 12;

    final byte[] buf;
    final int limit;
    final String file;
    private int pos;
    private int[] lineStarts = new int[256];
    private int lineCount = 1;
    private int maxLineScanned;

    public int kind;
    public int start;
    public int end;

    public Lexer(byte[] buf, int offset, int limit, String file) {
        this.buf = buf;
        this.limit = limit;
        this.file = file;
        this.pos = offset;
        lineStarts[0] = 0;
        indexLinesUpTo(offset);
    }

    /** Records line starts before {@code offset}, for inputs split into pieces. */
    private void indexLinesUpTo(int offset) {
        for (int i = maxLineScanned; i < offset; i++) {
            if (buf[i] == '\n') {
                addLine(i + 1);
            }
        }
        maxLineScanned = Math.max(maxLineScanned, offset);
    }

    private void addLine(int startOffset) {
        if (lineCount > 0 && lineStarts[lineCount - 1] >= startOffset) {
            return;
        }
        if (lineCount == lineStarts.length) {
            lineStarts = Arrays.copyOf(lineStarts, lineCount * 2);
        }
        lineStarts[lineCount++] = startOffset;
    }

    /** The location of a byte offset. */
    public Location locationOf(int offset) {
        indexLinesUpTo(Math.min(offset, limit));
        if (offset >= lineStarts[lineCount - 1]) {
            return Location.of(file, lineCount, offset - lineStarts[lineCount - 1] + 1);
        }
        int lo = 0;
        int hi = lineCount - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (lineStarts[mid] <= offset) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        // Columns count bytes, as MLIR's source manager does.
        return Location.of(file, lo + 1, offset - lineStarts[lo] + 1);
    }

    public void reset(int position) {
        this.pos = position;
    }

    public byte byteAt(int i) {
        return i < limit ? buf[i] : 0;
    }

    public String text() {
        return new String(buf, start, end - start, StandardCharsets.UTF_8);
    }

    public boolean is(int k, String text) {
        if (kind != k || end - start != text.length()) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            if (buf[start + i] != text.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    public boolean isPunct(char c) {
        return kind == PUNCT && buf[start] == c;
    }

    MgpuException error(int offset, String message) {
        return new MgpuException(locationOf(offset), message);
    }

    private void skipTrivia() {
        final byte[] buf = this.buf;
        final int limit = this.limit;
        int p = pos;
        while (p < limit) {
            byte c = buf[p];
            if (c == ' ' || c == '\t' || c == '\r') {
                p++;
            } else if (c == '\n') {
                p++;
                if (p > maxLineScanned) {
                    addLine(p);
                    maxLineScanned = p;
                }
            } else if (c == '/' && p + 1 < limit && buf[p + 1] == '/') {
                while (p < limit && buf[p] != '\n') {
                    p++;
                }
            } else {
                break;
            }
        }
        pos = p;
        if (p > maxLineScanned) {
            maxLineScanned = p;
        }
    }

    private static final byte ID_START = 1;
    private static final byte ID_CHAR = 2;
    private static final byte SUFFIX_ID_CHAR = 4;
    /**
     * Per byte value, which identifiers it may start or continue: one load per character instead of a chain
     * of comparisons. Identifier characters are ASCII: letters and {@code _} start one; digits, {@code $} and
     * {@code .} continue one; {@code -} continues a suffix identifier ({@code %x-1}, {@code @a-b}).
     */
    private static final byte[] CHAR_CLASS = new byte[256];

    static {
        for (int c = 0; c < 128; c++) {
            boolean start = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
            boolean id = start || (c >= '0' && c <= '9') || c == '$' || c == '.';
            CHAR_CLASS[c] = (byte) ((start ? ID_START : 0) | (id ? ID_CHAR | SUFFIX_ID_CHAR : 0)
                    | (c == '-' ? SUFFIX_ID_CHAR : 0));
        }
    }

    private static boolean idStart(int c) {
        return (CHAR_CLASS[c & 0xFF] & ID_START) != 0;
    }

    private static boolean idChar(int c) {
        return (CHAR_CLASS[c & 0xFF] & ID_CHAR) != 0;
    }

    private static boolean suffixIdChar(int c) {
        return (CHAR_CLASS[c & 0xFF] & SUFFIX_ID_CHAR) != 0;
    }

    /** Advances to the next token. */
    public void next() {
        skipTrivia();
        // The input and its end in locals: the quick compiler keeps them in registers through the loops.
        final byte[] buf = this.buf;
        final int limit = this.limit;
        int p = pos;
        start = p;
        if (p >= limit) {
            kind = EOF;
            end = p;
            return;
        }
        int c = buf[p] & 0xFF;
        if (idStart(c)) {
            p++;
            while (p < limit && idChar(buf[p])) {
                p++;
            }
            finish(BARE_ID, p);
            return;
        }
        switch (c) {
            case '%':
            case '^':
            case '#':
            case '!': {
                int k = c == '%' ? PERCENT_ID : c == '^' ? CARET_ID : c == '#' ? HASH_ID : BANG_ID;
                p++;
                int s = p;
                if (c == '!' && p < limit && buf[p] == '"') {
                    throw error(start, "Invalid type (must not be an opaque dialect type): " + (char) c);
                }
                while (p < limit && suffixIdChar(buf[p])) {
                    p++;
                }
                if (p == s) {
                    throw error(start, "Invalid identifier (must follow '" + (char) c + "'): nothing");
                }
                finish(k, p);
                return;
            }
            case '@': {
                p++;
                if (p < limit && buf[p] == '"') {
                    int e = scanString(p);
                    finish(AT_ID, e);
                    return;
                }
                int s = p;
                while (p < limit && suffixIdChar(buf[p])) {
                    p++;
                }
                if (p == s) {
                    throw error(start, "Invalid symbol (must follow '@'): nothing");
                }
                finish(AT_ID, p);
                return;
            }
            case '"':
                finish(STRING, scanString(p));
                return;
            case '-':
                if (p + 1 < limit && buf[p + 1] == '>') {
                    finish(ARROW, p + 2);
                    return;
                }
                finish(PUNCT, p + 1);
                return;
            case ':':
                if (p + 1 < limit && buf[p + 1] == ':') {
                    finish(COLON_COLON, p + 2);
                    return;
                }
                finish(PUNCT, p + 1);
                return;
            case '(': case ')': case '[': case ']': case '{': case '}': case '<': case '>':
            case ',': case '=': case '?': case '*': case '+': case '|':
                finish(PUNCT, p + 1);
                return;
            default:
                break;
        }
        if (c >= '0' && c <= '9') {
            if (c == '0' && p + 1 < limit && buf[p + 1] == 'x') {
                p += 2;
                while (p < limit && isHex(buf[p])) {
                    p++;
                }
                finish(INTEGER, p);
                return;
            }
            while (p < limit && buf[p] >= '0' && buf[p] <= '9') {
                p++;
            }
            boolean isFloat = false;
            if (p < limit && buf[p] == '.') {
                isFloat = true;
                p++;
                while (p < limit && buf[p] >= '0' && buf[p] <= '9') {
                    p++;
                }
                if (p < limit && (buf[p] == 'e' || buf[p] == 'E')) {
                    int q = p + 1;
                    if (q < limit && (buf[q] == '+' || buf[q] == '-')) {
                        q++;
                    }
                    if (q < limit && buf[q] >= '0' && buf[q] <= '9') {
                        p = q;
                        while (p < limit && buf[p] >= '0' && buf[p] <= '9') {
                            p++;
                        }
                    }
                }
            }
            finish(isFloat ? FLOAT : INTEGER, p);
            return;
        }
        if (c == 0) {
            throw error(p, "Invalid character (must not be NUL outside a string): \\00");
        }
        throw error(p, "Invalid character (must start a token): " + describe(c));
    }

    private static String describe(int c) {
        return c >= 0x20 && c < 0x7F ? "'" + (char) c + "'" : String.format("\\%02X", c);
    }

    private void finish(int k, int e) {
        kind = k;
        end = e;
        pos = e;
    }

    static boolean isHex(int c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    /** Hex digit values, -1 for other bytes. */
    private static final byte[] HEX_VALUE = new byte[256];

    static {
        java.util.Arrays.fill(HEX_VALUE, (byte) -1);
        for (int i = 0; i < 10; i++) {
            HEX_VALUE['0' + i] = (byte) i;
        }
        for (int i = 0; i < 6; i++) {
            HEX_VALUE['a' + i] = (byte) (10 + i);
            HEX_VALUE['A' + i] = (byte) (10 + i);
        }
    }

    /**
     * The decoded bytes of the last string literal scanned, in {@link #decoded}[0, decodedLength); the
     * scan decodes as it goes, so each literal is read once.
     */
    private byte[] decoded = new byte[256];
    private int decodedLength;
    private int decodedEnd = -1;

    /** Scans a string literal starting at the quote, decoding it; returns the offset past the closing quote. */
    private int scanString(int quote) {
        final byte[] b = buf;
        final int lim = limit;
        int p = quote + 1;
        byte[] out = decoded;
        int n = 0;
        // Once a literal is large, the rest of it is measured and the array made its exact size: then the
        // decoded bytes are handed over as they are (decodeString), and a blob costs one array, not two.
        boolean exact = false;
        while (true) {
            // The bytes of a blob, escapes of two hex digits and characters that stand for themselves, in a
            // loop of their own within the room left; the closing quote, a line break, another escape and the
            // input's end are left to the rest of the loop. A branch per kind of byte: the quick compiler makes
            // a branch of a conditional value too, and binaries.mlir parsed in 0.14 s so, 0.20 s with those
            // (medians of 5 runs each, -v).
            int stop = (int) Math.min(lim - 2L, p + (long) (out.length - n - (exact ? 0 : 4)));
            while (p < stop) {
                byte c = b[p];
                if (c == '\\') {
                    int v = (HEX_VALUE[b[p + 1] & 0xFF] << 4) | HEX_VALUE[b[p + 2] & 0xFF];
                    if (v < 0) {
                        break;
                    }
                    out[n++] = (byte) v;
                    p += 3;
                } else if (c == '"' || c == '\n') {
                    break;
                } else {
                    out[n++] = c;
                    p++;
                }
            }
            if (p >= lim) {
                throw error(quote, "Invalid string (must end with '\"'): end of input");
            }
            if (exact ? n >= out.length && b[p] != '"' : n + 4 > out.length) {
                long grown = out.length * 2L;
                if (out.length >= (1 << 16) && !exact) {
                    grown = n + decodedLengthFrom(p);
                    exact = true;
                } else {
                    exact = false;
                }
                out = Arrays.copyOf(out, (int) Math.min(Integer.MAX_VALUE - 16L, Math.max(grown, n + 4L)));
            }
            byte c = b[p];
            if (c == '\\') {
                if (p + 1 >= lim) {
                    throw error(quote, "Invalid string (must end with '\"'): end of input");
                }
                byte e = b[p + 1];
                int hi = HEX_VALUE[e & 0xFF];
                int lo = p + 2 < lim ? HEX_VALUE[b[p + 2] & 0xFF] : -1;
                if (hi >= 0 && lo >= 0) {
                    out[n++] = (byte) ((hi << 4) | lo);
                    p += 3;
                } else if (e == '"' || e == '\\') {
                    out[n++] = e;
                    p += 2;
                } else if (e == 'n') {
                    out[n++] = '\n';
                    p += 2;
                } else if (e == 't') {
                    out[n++] = '\t';
                    p += 2;
                } else {
                    throw error(p, "Invalid escape (must be \\\\, \\\", \\n, \\t or \\XX): \\" + describeEscape(p + 1));
                }
            } else if (c == '"') {
                decoded = out;
                decodedLength = n;
                decodedEnd = p + 1;
                return p + 1;
            } else if (c == '\n') {
                throw error(quote, "Invalid string (must end with '\"' on its line): end of line");
            } else {
                out[n++] = c;
                p++;
            }
        }
    }

    /**
     * How many bytes a string literal decodes to from {@code p} to its closing quote (or to where it stops:
     * a line break, the end of the input), counting each escape as one byte; an invalid escape, which
     * decoding rejects before it gets there, counts as two characters.
     */
    private long decodedLengthFrom(int p) {
        final byte[] b = buf;
        final int lim = limit;
        long n = 0;
        while (p < lim) {
            byte c = b[p];
            if (c == '"' || c == '\n') {
                break;
            }
            if (c == '\\') {
                p += p + 2 < lim && HEX_VALUE[b[p + 1] & 0xFF] >= 0 && HEX_VALUE[b[p + 2] & 0xFF] >= 0 ? 3 : 2;
            } else {
                p++;
            }
            n++;
        }
        return n;
    }

    private String describeEscape(int p) {
        StringBuilder sb = new StringBuilder();
        int n = p < limit && isHex(buf[p]) ? 2 : 1;
        for (int i = p; i < Math.min(limit, p + n); i++) {
            int c = buf[i] & 0xFF;
            if (c == '"' || c == '\n') {
                break;
            }
            sb.append(c >= 0x20 && c < 0x7F ? String.valueOf((char) c) : String.format("\\%02X", c));
        }
        return sb.toString();
    }

    /** Decodes the string literal spanning [s, e) (quotes included) to its exact bytes. */
    public byte[] decodeString(int s, int e) {
        if (e != decodedEnd) {
            int save = pos;
            scanString(s);
            pos = save;
        }
        if (decoded.length == decodedLength && decodedLength > (1 << 20)) {
            // Made to measure by scanString: handed over, not copied.
            byte[] out = decoded;
            decoded = new byte[256];
            decodedEnd = -1;
            return out;
        }
        byte[] out = Arrays.copyOf(decoded, decodedLength);
        if (decoded.length > (1 << 20)) {
            decoded = new byte[256];
            decodedEnd = -1;
        }
        return out;
    }

    static int hexValue(byte c) {
        if (c <= '9') {
            return c - '0';
        }
        return (c | 0x20) - 'a' + 10;
    }
}
