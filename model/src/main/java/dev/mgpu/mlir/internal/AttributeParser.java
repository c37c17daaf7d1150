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
