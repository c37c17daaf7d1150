package dev.mgpu.mlir.internal;

import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.MgpuException;
import dev.mgpu.text.AsmParser;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The lowest layer of the parser: the current token, punctuation and keywords, literals, symbols and
 * located errors. Each layer above adds one concern: {@link TypeParser}, {@link AttributeParser},
 * {@link LocationParser}, {@link OperationParser} and, at the top, {@link Parser} (the whole file).
 */
abstract class TokenParser implements AsmParser {
    protected final Lexer lx;

    /**
     * How deeply regions, types and attributes may nest. Parsing recurses once per level, and upstream's
     * parser also stops at a depth; past it the input is refused with a located error, never with a stack
     * overflow.
     */
    static final int MAX_DEPTH = 500;
    private int depth;

    /** Enters one level of nesting at {@code offset}. */
    protected void enter(int offset) {
        if (++depth > MAX_DEPTH) {
            throw errorAt(offset, "Invalid nesting (must be at most " + MAX_DEPTH + " levels deep): level " + depth);
        }
    }

    protected void leave() {
        depth--;
    }

    TokenParser(byte[] buf, int offset, int limit, String file) {
        this.lx = new Lexer(buf, offset, limit, file);
        lx.next();
    }

    // ---------------------------------------------------------------- tokens

    public Lexer lexer() {
        return lx;
    }

    public Location location() {
        return lx.locationOf(lx.start);
    }

    public Location locationOf(int offset) {
        return lx.locationOf(offset);
    }

    public int offset() {
        return lx.start;
    }

    public MgpuException error(String message) {
        return new MgpuException(location(), message);
    }

    public MgpuException errorAt(int offset, String message) {
        return new MgpuException(lx.locationOf(offset), message);
    }

    private String describeToken() {
        switch (lx.kind) {
            case Lexer.EOF:
                return "end of input";
            case Lexer.STRING:
                return "a string";
            default: {
                String t = lx.text();
                return "'" + (t.length() > 40 ? t.substring(0, 40) + "..." : t) + "'";
            }
        }
    }

    public MgpuException expected(String what) {
        return error("Invalid syntax (must be " + what + "): " + describeToken());
    }

    public boolean atPunct(char c) {
        return lx.isPunct(c);
    }

    public boolean optionalPunct(char c) {
        if (lx.isPunct(c)) {
            lx.next();
            return true;
        }
        return false;
    }

    public void expectPunct(char c) {
        if (!lx.isPunct(c)) {
            throw expected("'" + c + "'");
        }
        lx.next();
    }

    public boolean optionalArrow() {
        if (lx.kind == Lexer.ARROW) {
            lx.next();
            return true;
        }
        return false;
    }

    public void expectArrow() {
        if (!optionalArrow()) {
            throw expected("'->'");
        }
    }

    public boolean atKeyword(String k) {
        return lx.is(Lexer.BARE_ID, k);
    }

    public boolean optionalKeyword(String k) {
        if (lx.is(Lexer.BARE_ID, k)) {
            lx.next();
            return true;
        }
        return false;
    }

    public void expectKeyword(String k) {
        if (!optionalKeyword(k)) {
            throw expected("'" + k + "'");
        }
    }

    /** The current bare identifier's text, or null. */
    public String peekKeyword() {
        return lx.kind == Lexer.BARE_ID ? lx.text() : null;
    }

    public String keyword() {
        if (lx.kind != Lexer.BARE_ID) {
            throw expected("a keyword");
        }
        String s = lx.text();
        lx.next();
        return s;
    }

    public boolean atEnd() {
        return lx.kind == Lexer.EOF;
    }

    @Override
    public boolean atString() {
        return lx.kind == Lexer.STRING;
    }

    @Override
    public boolean atInteger() {
        return lx.kind == Lexer.INTEGER;
    }

    public boolean atSymbol() {
        return lx.kind == Lexer.AT_ID;
    }

    /** An optionally negative integer literal. */
    public long integer() {
        int off = lx.start;
        boolean neg = optionalPunct('-');
        if (lx.kind != Lexer.INTEGER) {
            throw expected("an integer");
        }
        if (neg && lx.end - lx.start == 19 && lx.text().equals("9223372036854775808")) {
            // -2^63, whose magnitude alone does not fit: upstream's "?" in static_sizes and the like.
            lx.next();
            return Long.MIN_VALUE;
        }
        long v = parseIntegerToken(off);
        lx.next();
        return neg ? -v : v;
    }

    protected long parseIntegerToken(int off) {
        String t = lx.text();
        try {
            if (t.startsWith("0x")) {
                return Long.parseUnsignedLong(t.substring(2), 16);
            }
            return Long.parseLong(t);
        } catch (NumberFormatException e) {
            throw errorAt(off, "Invalid integer (must fit in 64 bits): " + t);
        }
    }

    /** A string literal, decoded to its exact bytes. */
    public byte[] stringBytes() {
        if (lx.kind != Lexer.STRING) {
            throw expected("a string");
        }
        byte[] b = lx.decodeString(lx.start, lx.end);
        lx.next();
        return b;
    }

    public String string() {
        return new String(stringBytes(), StandardCharsets.UTF_8);
    }

    /** {@code @name}, returned without the {@code @}. */
    public String symbolName() {
        if (lx.kind != Lexer.AT_ID) {
            throw expected("a symbol name");
        }
        String s = symbolText();
        lx.next();
        return s;
    }

    private String symbolText() {
        if (lx.byteAt(lx.start + 1) == '"') {
            return new String(lx.decodeString(lx.start + 1, lx.end), StandardCharsets.UTF_8);
        }
        return new String(lx.buf, lx.start + 1, lx.end - lx.start - 1, StandardCharsets.UTF_8);
    }

    /** {@code @a::@b::@c}. */
    public Attribute.SymbolRefAttr symbolRef() {
        String root = symbolName();
        List<String> nested = new ArrayList<>(2);
        while (lx.kind == Lexer.COLON_COLON) {
            lx.next();
            nested.add(symbolName());
        }
        return new Attribute.SymbolRefAttr(root, nested);
    }
}
