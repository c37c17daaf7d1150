package dev.mgpu.mlir.internal;

import dev.mgpu.op.AttrDef;
import dev.mgpu.dialect.Dialects;
import dev.mgpu.dialect.builtin.DistinctAttr;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.FloatBits;
import dev.mgpu.ir.Type;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Attributes: the builtin ones (numbers, strings, arrays, dictionaries, symbols, dense arrays, strided
 * layouts, types), dialect attributes ({@code #name}) through the parsers their dialects register, and
 * attribute aliases.
 */
abstract class AttributeParser extends TypeParser {
    protected final Map<String, Attribute> attrAliases = new HashMap<>();

    AttributeParser(byte[] buf, int offset, int limit, String file) {
        super(buf, offset, limit, file);
    }

    // ---------------------------------------------------------------- attributes

    /** Any attribute. */
    public Attribute attribute() {
        enter(lx.start);
        try {
            return attributeBody();
        } finally {
            leave();
        }
    }

    private Attribute attributeBody() {
        int off = lx.start;
        switch (lx.kind) {
            case Lexer.INTEGER:
            case Lexer.FLOAT:
                return numberAttr(false, off);
            case Lexer.STRING:
                return new Attribute.StringAttr(stringBytes());
            case Lexer.AT_ID:
                return symbolRef();
            case Lexer.HASH_ID:
                return hashAttribute();
            case Lexer.BANG_ID:
                return new Attribute.TypeAttr(type());
            case Lexer.PUNCT:
                if (lx.isPunct('-')) {
                    lx.next();
                    return numberAttr(true, off);
                }
                if (lx.isPunct('[')) {
                    lx.next();
                    List<Attribute> items = new ArrayList<>();
                    if (!optionalPunct(']')) {
                        do {
                            items.add(attribute());
                        } while (optionalPunct(','));
                        expectPunct(']');
                    }
                    return new Attribute.ArrayAttr(items);
                }
                if (lx.isPunct('{')) {
                    return new Attribute.DictionaryAttr(dictionary());
                }
                if (lx.isPunct('(')) {
                    return new Attribute.TypeAttr(type());
                }
                break;
            case Lexer.BARE_ID: {
                String k = lx.text();
                switch (k) {
                    case "true":
                        lx.next();
                        return new Attribute.IntegerAttr(1, Type.I1);
                    case "false":
                        lx.next();
                        return new Attribute.IntegerAttr(0, Type.I1);
                    case "unit":
                        lx.next();
                        return Attribute.UNIT;
                    case "distinct": {
                        lx.next();
                        expectPunct('[');
                        long id = integer();
                        expectPunct(']');
                        expectPunct('<');
                        Attribute referenced = lx.isPunct('>') ? null : attribute();
                        expectPunct('>');
                        return new DistinctAttr(id, referenced);
                    }
                    case "array":
                        lx.next();
                        return denseArray();
                    case "strided":
                        lx.next();
                        return strided();
                    case "affine_map":
                        lx.next();
                        return minorIdentity();
                    case "dense": {
                        lx.next();
                        Object literal = denseLiteral();
                        expectPunct(':');
                        int typeOff = lx.start;
                        Type t = type();
                        if (!(t instanceof Type.TensorType tt)) {
                            throw errorAt(typeOff, "Invalid dense elements type (must be a tensor): " + t);
                        }
                        return denseOf(literal, tt, off);
                    }
                    case "dense_resource": {
                        lx.next();
                        expectPunct('<');
                        String handle = keyword();
                        expectPunct('>');
                        expectPunct(':');
                        int typeOff = lx.start;
                        Type t = type();
                        if (!(t instanceof Type.TensorType)) {
                            throw errorAt(typeOff, "Invalid dense_resource type (must be a tensor): " + t);
                        }
                        return new Attribute.DenseResourceAttr(handle, t);
                    }
                    default:
                        if (atType()) {
                            return new Attribute.TypeAttr(type());
                        }
                        throw errorAt(off, "Invalid attribute (must be a known attribute or alias): " + k);
                }
            }
            default:
                break;
        }
        throw expected("an attribute");
    }

    @Override
    public Attribute.DenseElementsAttr denseElements(Type.TensorType type) {
        int off = lx.start;
        if (lx.kind != Lexer.BARE_ID || !lx.text().equals("dense")) {
            throw expected("dense<...>");
        }
        lx.next();
        return denseOf(denseLiteral(), type, off);
    }

    /** One element of {@code dense<...>} as written: a number (maybe negated), true or false. */
    private record DenseToken(String text, boolean isFloat, boolean negative, int offset) {
    }

    /** A hexadecimal string of the elements' little-endian bytes, as upstream writes large constants. */
    private record DenseHex(byte[] bytes, int offset) {
    }

    /** {@code <...>} after {@code dense}: a DenseToken, a DenseHex, or lists of them nested as the shape is. */
    private Object denseLiteral() {
        expectPunct('<');
        Object literal;
        if (lx.isPunct('>')) {
            literal = List.of();
        } else if (lx.kind == Lexer.STRING) {
            int off = lx.start;
            String hex = new String(stringBytes(), java.nio.charset.StandardCharsets.ISO_8859_1);
            if (!hex.matches("0x([0-9a-fA-F]{2})*")) {
                throw errorAt(off, "Invalid dense elements string (must be 0x and hexadecimal bytes): \"" + hex + "\"");
            }
            byte[] bytes = new byte[(hex.length() - 2) / 2];
            for (int k = 0; k < bytes.length; k++) {
                bytes[k] = (byte) Integer.parseInt(hex.substring(2 + 2 * k, 4 + 2 * k), 16);
            }
            literal = new DenseHex(bytes, off);
        } else {
            literal = denseItem();
        }
        expectPunct('>');
        return literal;
    }

    private Object denseItem() {
        if (optionalPunct('[')) {
            List<Object> items = new ArrayList<>();
            if (!optionalPunct(']')) {
                do {
                    items.add(denseItem());
                } while (optionalPunct(','));
                expectPunct(']');
            }
            return items;
        }
        int off = lx.start;
        boolean negative = optionalPunct('-');
        String text = lx.text();
        if (lx.kind == Lexer.BARE_ID && !negative && (text.equals("true") || text.equals("false"))
                || lx.kind == Lexer.INTEGER || lx.kind == Lexer.FLOAT) {
            boolean isFloat = lx.kind == Lexer.FLOAT;
            lx.next();
            return new DenseToken(text, isFloat, negative, off);
        }
        throw expected("a dense element: a number, true or false");
    }

    /** The elements of {@code type} that {@code literal} (from {@link #denseLiteral}) writes. */
    private Attribute.DenseElementsAttr denseOf(Object literal, Type.TensorType type, int off) {
        Type e = type.elementType();
        long count = 1;
        for (long d : type.shape()) {
            if (d < 0) {
                throw errorAt(off, "Invalid dense elements type (must have a static shape): " + type);
            }
            try {
                count = Math.multiplyExact(count, d);
            } catch (ArithmeticException x) {
                throw errorAt(off, "Invalid dense elements type (must have fewer than 2^63 elements): " + type);
            }
        }
        if (!(e.isIntegerOrIndex() || e instanceof Type.FloatType)) {
            throw errorAt(off, "Invalid dense element type (must be an integer, index or float): " + e);
        }
        if (e instanceof Type.IntegerType it && it.width() > 64) {
            throw errorAt(off, "Invalid dense element type (must be at most 64 bits wide): " + e);
        }
        if (literal instanceof List<?> l && l.isEmpty() && count == 0) {
            return new Attribute.DenseElementsAttr(type, new long[0]); // dense<>, as upstream writes no elements
        }
        if (literal instanceof DenseHex h) {
            // Large constants: straight into the bits, with no object per element.
            return new Attribute.DenseElementsAttr(type, e.equals(Type.I1) ? packedBits(h, count) : hexBits(h, e, count));
        }
        List<Attribute> elements = new ArrayList<>();
        if (literal instanceof DenseToken t) {
            elements.add(denseValue(t, e));
        } else {
            flattenDense(literal, type.shape(), 0, e, elements, off);
        }
        if (elements.size() != count && elements.size() != 1) {
            throw errorAt(off, "Invalid dense elements (must be " + count + " for " + type + "): " + elements.size());
        }
        return Attribute.DenseElementsAttr.of(type, elements);
    }

    /** i1 elements as upstream writes them: bits packed from the low bit of the first byte; 0x00 or 0xFF a splat. */
    private long[] packedBits(DenseHex h, long count) {
        byte[] b = h.bytes();
        if (b.length == 1 && (b[0] == 0 || b[0] == -1) && count != 1) {
            return new long[] {b[0] & 1};
        }
        if (b.length != (count + 7) / 8) {
            throw errorAt(h.offset(), "Invalid dense elements string (must hold " + count + " bits of i1, packed): "
                    + b.length + " bytes");
        }
        long[] bits = new long[(int) count];
        for (int k = 0; k < count; k++) {
            bits[k] = (b[k / 8] >> (k % 8)) & 1;
        }
        return bits;
    }

    /** The elements of {@code e} in a hexadecimal string of their little-endian bytes, one element for a splat. */
    private long[] hexBits(DenseHex h, Type e, long count) {
        int width = e instanceof Type.FloatType f ? f.width() : e instanceof Type.IntegerType i ? i.width() : 64;
        int bytes = (width + 7) / 8;
        byte[] b = h.bytes();
        if (b.length != count * bytes && b.length != bytes) {
            throw errorAt(h.offset(), "Invalid dense elements string (must hold " + count + " elements of " + e + ", "
                    + bytes + " bytes each): " + b.length + " bytes");
        }
        long[] bits = new long[b.length / bytes];
        for (int k = 0; k < bits.length; k++) {
            long v = 0;
            for (int j = 0; j < bytes; j++) {
                v |= (b[k * bytes + j] & 0xFFL) << (8 * j);
            }
            // An integer is held sign-extended, as IntegerAttr holds it; a float keeps its bits.
            bits[k] = e instanceof Type.FloatType || width == 64 ? v : (v << (64 - width)) >> (64 - width);
        }
        return bits;
    }

    private void flattenDense(Object literal, long[] shape, int dim, Type e, List<Attribute> out, int off) {
        if (dim == shape.length) {
            if (!(literal instanceof DenseToken t)) {
                throw errorAt(off, "Invalid dense elements (must be nested " + shape.length + " deep, as the shape)");
            }
            out.add(denseValue(t, e));
            return;
        }
        if (!(literal instanceof List<?> items) || items.size() != shape[dim]) {
            throw errorAt(off, "Invalid dense elements (must have " + shape[dim] + " at depth " + (dim + 1) + "): "
                    + (literal instanceof List<?> l ? l.size() : "one element"));
        }
        for (Object item : items) {
            flattenDense(item, shape, dim + 1, e, out, off);
        }
    }

    private Attribute denseValue(DenseToken t, Type e) {
        String text = t.text();
        if (text.equals("true") || text.equals("false")) {
            if (!e.equals(Type.I1)) {
                throw errorAt(t.offset(), "Invalid dense element of " + e + " (must be a number): " + text);
            }
            return new Attribute.IntegerAttr(text.equals("true") ? 1 : 0, e);
        }
        boolean hex = text.startsWith("0x");
        if (hex && text.length() == 2) {
            throw errorAt(t.offset(), "Invalid integer (must have hexadecimal digits after 0x): " + text);
        }
        if (e instanceof Type.FloatType f) {
            if (t.isFloat()) {
                double d = Double.parseDouble(text);
                return new Attribute.FloatAttr(t.negative() ? -d : d, f);
            }
            if (!hex) {
                throw errorAt(t.offset(), "Invalid dense element of " + e + " (must be a float: a decimal point, an"
                        + " exponent or hexadecimal bits): " + text);
            }
            BigInteger bits = new BigInteger(text.substring(2), 16);
            if (bits.bitLength() > f.width()) {
                throw errorAt(t.offset(), "Invalid hexadecimal float constant (must fit in the " + f.width() + " bits"
                        + " of " + f + "): " + text);
            }
            double d = FloatBits.fromBits(bits.longValue(), f);
            return new Attribute.FloatAttr(t.negative() ? -d : d, f);
        }
        if (t.isFloat()) {
            throw errorAt(t.offset(), "Invalid dense element of " + e + " (must be an integer): " + text);
        }
        BigInteger v = new BigInteger(hex ? text.substring(2) : text, hex ? 16 : 10);
        return new Attribute.IntegerAttr(integerValue(t.negative() ? v.negate() : v, e, t.offset(),
                (t.negative() ? "-" : "") + text), e);
    }

    private Attribute numberAttr(boolean negative, int off) {
        int numOff = lx.start;
        if (lx.kind == Lexer.FLOAT) {
            double d = Double.parseDouble(lx.text());
            lx.next();
            Type t = Type.F64;
            if (optionalPunct(':')) {
                int typeOff = lx.start;
                t = type();
                if (!(t instanceof Type.FloatType)) {
                    throw errorAt(typeOff, "Invalid float attribute type (must be a float type): " + t);
                }
            }
            return new Attribute.FloatAttr(negative ? -d : d, t);
        }
        if (lx.kind != Lexer.INTEGER) {
            throw expected("a number");
        }
        String text = lx.text();
        boolean hex = text.startsWith("0x");
        if (hex && text.length() == 2) {
            throw errorAt(numOff, "Invalid integer (must have hexadecimal digits after 0x): " + text);
        }
        BigInteger magnitude = new BigInteger(hex ? text.substring(2) : text, hex ? 16 : 10);
        lx.next();
        Type t = Type.I64;
        if (optionalPunct(':')) {
            t = type();
        }
        if (t instanceof Type.FloatType ft) {
            if (!hex) {
                throw errorAt(numOff, "Invalid float constant (must have a decimal point, an exponent or hexadecimal"
                        + " bits, not a decimal integer): " + text);
            }
            if (magnitude.bitLength() > ft.width()) {
                throw errorAt(numOff, "Invalid hexadecimal float constant (must fit in the " + ft.width() + " bits of "
                        + ft + "): " + text);
            }
            double d = FloatBits.fromBits(magnitude.longValue(), ft);
            return new Attribute.FloatAttr(negative ? -d : d, t);
        }
        if (!t.isIntegerOrIndex()) {
            throw errorAt(off, "Invalid integer attribute type (must be an integer or index type): " + t);
        }
        return new Attribute.IntegerAttr(integerValue(negative ? magnitude.negate() : magnitude, t, numOff,
                (negative ? "-" : "") + text), t);
    }

    /**
     * The value of an integer literal of type {@code t}, which must fit in the type's width as a signed or
     * an unsigned number (as upstream: {@code 255 : i8} is {@code -1 : i8}, {@code 256 : i8} an error), held
     * sign-extended; {@code i1} holds 0 or 1.
     */
    private long integerValue(BigInteger v, Type t, int off, String text) {
        int w = t instanceof Type.IntegerType it ? it.width() : 64;
        int bits = Math.min(w, 64);
        BigInteger min = BigInteger.ONE.shiftLeft(bits - 1).negate();
        BigInteger max = BigInteger.ONE.shiftLeft(bits).subtract(BigInteger.ONE);
        if (v.compareTo(min) < 0 || v.compareTo(max) > 0) {
            throw errorAt(off, "Invalid integer constant (must fit in " + t + ", " + min + " to " + max + "): " + text);
        }
        long raw = v.longValue();
        if (bits == 1) {
            return raw & 1;
        }
        return bits == 64 ? raw : (raw << (64 - bits)) >> (64 - bits);
    }

    private Attribute denseArray() {
        expectPunct('<');
        Type t = type();
        List<Long> vals = new ArrayList<>();
        if (optionalPunct(':')) {
            do {
                if (atKeyword("true") || atKeyword("false")) {
                    vals.add(keyword().equals("true") ? 1L : 0L);
                } else {
                    int off = lx.start;
                    long v = integer();
                    vals.add(t.isIntegerOrIndex() ? integerValue(BigInteger.valueOf(v), t, off, Long.toString(v)) : v);
                }
            } while (optionalPunct(','));
        }
        expectPunct('>');
        long[] v = new long[vals.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = vals.get(i);
        }
        return new Attribute.DenseArrayAttr(t, v);
    }

    private long dimOrDynamic() {
        if (optionalPunct('?')) {
            return Type.DYNAMIC;
        }
        return integer();
    }

    /**
     * {@code affine_map<(d0, ..., dN) -> (dN)>}, the one affine map of the subset (a vector transfer along a
     * memref's last dimension); any other is a located error.
     */
    private Attribute minorIdentity() {
        int at = lx.start;
        expectPunct('<');
        expectPunct('(');
        int rank = 0;
        do {
            String d = keyword();
            if (!d.equals("d" + rank)) {
                throw errorAt(at, "Invalid affine_map (must be a minor identity, affine_map<(d0, ..., dN) -> (dN)>): "
                        + d);
            }
            rank++;
        } while (optionalPunct(','));
        expectPunct(')');
        expectArrow();
        expectPunct('(');
        String last = keyword();
        expectPunct(')');
        expectPunct('>');
        if (!last.equals("d" + (rank - 1))) {
            throw errorAt(at, "Invalid affine_map (must be a minor identity, affine_map<(d0, ..., dN) -> (dN)>): "
                    + last);
        }
        return new dev.mgpu.dialect.vector.Vector.MinorIdentityMap(rank);
    }

    private Attribute strided() {
        expectPunct('<');
        expectPunct('[');
        List<Long> s = new ArrayList<>();
        if (!optionalPunct(']')) {
            do {
                s.add(dimOrDynamic());
            } while (optionalPunct(','));
            expectPunct(']');
        }
        long offset = 0;
        if (optionalPunct(',')) {
            expectKeyword("offset");
            expectPunct(':');
            offset = dimOrDynamic();
        }
        expectPunct('>');
        long[] st = new long[s.size()];
        for (int i = 0; i < st.length; i++) {
            st[i] = s.get(i);
        }
        return new Attribute.StridedLayoutAttr(offset, st);
    }

    /** {@code {name = value, unitName, ...}}. */
    public Map<String, Attribute> dictionary() {
        expectPunct('{');
        Map<String, Attribute> m = new LinkedHashMap<>();
        if (optionalPunct('}')) {
            return m;
        }
        do {
            int off = lx.start;
            String key;
            if (lx.kind == Lexer.BARE_ID) {
                key = lx.text();
                lx.next();
            } else if (lx.kind == Lexer.STRING) {
                key = string();
            } else {
                throw expected("an attribute name");
            }
            Attribute v = optionalPunct('=') ? attribute() : Attribute.UNIT;
            if (m.put(key, v) != null) {
                throw errorAt(off, "Invalid attribute dictionary (must name each attribute once): " + key);
            }
        } while (optionalPunct(','));
        expectPunct('}');
        return m;
    }

    /** An attribute dictionary when one follows, else an empty map. */
    public Map<String, Attribute> optionalDictionary() {
        return lx.isPunct('{') ? dictionary() : Map.of();
    }

    /** {@code attributes {...}} when present, else an empty map. */
    public Map<String, Attribute> optionalAttributesKeyword() {
        return optionalKeyword("attributes") ? dictionary() : new LinkedHashMap<>();
    }

    private Attribute hashAttribute() {
        int off = lx.start;
        String name = lx.text().substring(1);
        lx.next();
        AttrDef def = Dialects.attribute(name);
        if (def != null) {
            return def.parser().parse(this, off);
        }
        Attribute alias = attrAliases.get(name);
        if (alias != null) {
            return alias;
        }
        throw errorAt(off, "Invalid attribute (must be a known attribute or alias): #" + name);
    }
}
