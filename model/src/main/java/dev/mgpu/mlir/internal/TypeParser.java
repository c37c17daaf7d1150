package dev.mgpu.mlir.internal;

import dev.mgpu.dialect.Dialects;
import dev.mgpu.op.TypeDef;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Type;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Types: the builtin ones, {@code memref<...>}, function types, and dialect types ({@code !name}) through
 * the parsers their dialects register, or type aliases.
 */
abstract class TypeParser extends TokenParser {
    protected final Map<String, Type> typeAliases = new HashMap<>();

    TypeParser(byte[] buf, int offset, int limit, String file) {
        super(buf, offset, limit, file);
    }

    // ---------------------------------------------------------------- types

    public Type type() {
        enter(lx.start);
        try {
            return typeBody();
        } finally {
            leave();
        }
    }

    private Type typeBody() {
        int off = lx.start;
        switch (lx.kind) {
            case Lexer.BARE_ID: {
                Type fast = commonType();
                if (fast != null) {
                    lx.next();
                    return fast;
                }
                String k = lx.text();
                Type builtin = builtinType(k);
                if (builtin != null) {
                    lx.next();
                    return builtin;
                }
                if (k.equals("memref")) {
                    lx.next();
                    return memrefType();
                }
                if (k.equals("tensor")) {
                    lx.next();
                    return tensorType();
                }
                if (k.equals("vector")) {
                    lx.next();
                    return vectorType();
                }
                throw errorAt(off, "Invalid type (must be a known type): " + k);
            }
            case Lexer.BANG_ID:
                return dialectType();
            case Lexer.PUNCT:
                if (lx.isPunct('(')) {
                    return functionType();
                }
                break;
            default:
                break;
        }
        throw expected("a type");
    }

    /** The most common builtin types, recognised without allocating. */
    private Type commonType() {
        int n = lx.end - lx.start;
        byte c = lx.buf[lx.start];
        if (n == 3 && (c == 'i' || c == 'f')) {
            byte d1 = lx.buf[lx.start + 1];
            byte d2 = lx.buf[lx.start + 2];
            if (d1 == '3' && d2 == '2') {
                return c == 'i' ? Type.I32 : Type.F32;
            }
            if (d1 == '6' && d2 == '4') {
                return c == 'i' ? Type.I64 : Type.F64;
            }
        }
        if (n == 5 && lx.is(Lexer.BARE_ID, "index")) {
            return Type.INDEX;
        }
        return null;
    }

    private static Type builtinType(String k) {
        switch (k) {
            case "index": return Type.INDEX;
            case "f16": return Type.F16;
            case "bf16": return Type.BF16;
            case "f32": return Type.F32;
            case "f64": return Type.F64;
            case "none": return Type.NONE;
            default: break;
        }
        if (k.length() > 1 && k.charAt(0) == 'i') {
            for (int i = 1; i < k.length(); i++) {
                if (k.charAt(i) < '0' || k.charAt(i) > '9') {
                    return null;
                }
            }
            if (k.length() > 9) {
                return null;
            }
            int w = Integer.parseInt(k.substring(1));
            if (w < 1 || w > Type.IntegerType.MAX_WIDTH) {
                return null;
            }
            switch (w) {
                case 1: return Type.I1;
                case 8: return Type.I8;
                case 16: return Type.I16;
                case 32: return Type.I32;
                case 64: return Type.I64;
                default: return new Type.IntegerType(w);
            }
        }
        return null;
    }

    public boolean atType() {
        if (lx.kind == Lexer.BANG_ID || lx.isPunct('(')) {
            return true;
        }
        if (lx.kind == Lexer.BARE_ID && commonType() != null) {
            return true;
        }
        if (lx.kind == Lexer.BARE_ID) {
            String k = lx.text();
            return builtinType(k) != null || k.equals("memref") || k.equals("tensor") || k.equals("vector");
        }
        return false;
    }

    public Type.FunctionType functionType() {
        expectPunct('(');
        List<Type> in = new ArrayList<>();
        if (!optionalPunct(')')) {
            do {
                in.add(type());
            } while (optionalPunct(','));
            expectPunct(')');
        }
        expectArrow();
        return new Type.FunctionType(in, resultTypes());
    }

    /** {@code T} or {@code (T, ...)}, as after {@code ->}. */
    public List<Type> resultTypes() {
        List<Type> out = new ArrayList<>();
        if (lx.isPunct('(')) {
            int save = lx.start;
            lx.next();
            if (optionalPunct(')')) {
                return out;
            }
            // '(' may open a function type used as a single result.
            Type first = type();
            if (lx.kind == Lexer.ARROW) {
                lx.reset(save);
                lx.next();
                out.add(functionType());
                return out;
            }
            out.add(first);
            while (optionalPunct(',')) {
                out.add(type());
            }
            expectPunct(')');
            return out;
        }
        out.add(type());
        return out;
    }

    /** Types separated by commas, at least one. */
    public List<Type> typeList() {
        List<Type> out = new ArrayList<>();
        out.add(type());
        while (optionalPunct(',')) {
            out.add(type());
        }
        return out;
    }

    /** {@code tensor<4x?xT>}: the shape's dimensions as memref reads them, then the element type. */
    private Type tensorType() {
        int at = lx.start;
        Type body = memrefType();
        if (!(body instanceof Type.MemRefType shaped)) {
            // tensor<*xT>: host code has no use for unranked tensors, and the model has no such type.
            throw errorAt(at, "Invalid tensor type (must be ranked, tensor<4x?xT>): tensor<*x"
                    + ((Type.UnrankedMemRefType) body).elementType() + ">");
        }
        if (shaped.layout() != null || shaped.memorySpace() != null) {
            throw error("Invalid tensor type (must have a shape and an element type only): " + shaped);
        }
        return new Type.TensorType(shaped.shape(), shaped.elementType());
    }

    /** {@code vector<4xT>}: static dimensions (at least one), then the element type. */
    private Type vectorType() {
        int at = lx.start;
        Type body = memrefType();
        if (!(body instanceof Type.MemRefType shaped) || shaped.rank() == 0 || shaped.dynamicDimCount() > 0
                || shaped.layout() != null || shaped.memorySpace() != null) {
            throw errorAt(at, "Invalid vector type (must have static dimensions and an element type): " + body);
        }
        for (long d : shaped.shape()) {
            if (d <= 0) {
                throw errorAt(at, "Invalid vector type (must have positive dimensions): " + body);
            }
        }
        return new Type.VectorType(shaped.shape(), shaped.elementType());
    }

    private Type memrefType() {
        expectPunct('<');
        List<Long> shape = new ArrayList<>();
        boolean unranked = false;
        while (true) {
            if (lx.isPunct('*') && lx.byteAt(lx.end) == 'x') {
                unranked = true;
                lx.reset(lx.end + 1);
                lx.next();
                break;
            }
            if (lx.isPunct('?') && lx.byteAt(lx.end) == 'x') {
                shape.add(Type.DYNAMIC);
                lx.reset(lx.end + 1);
                lx.next();
                continue;
            }
            if (lx.kind == Lexer.INTEGER && lx.byteAt(lx.start) == '0' && lx.byteAt(lx.start + 1) == 'x') {
                // A zero dimension: the lexer read "0xf32" or "0x4xf32" as one hexadecimal number.
                shape.add(0L);
                lx.reset(lx.start + 2);
                lx.next();
                continue;
            }
            if (lx.kind == Lexer.INTEGER && lx.byteAt(lx.end) == 'x') {
                long d = parseIntegerToken(lx.start);
                shape.add(d);
                lx.reset(lx.end + 1);
                lx.next();
                continue;
            }
            break;
        }
        Type elem = type();
        Attribute layout = null;
        Attribute space = null;
        if (optionalPunct(',')) {
            if (!unranked && atKeyword("strided")) {
                layout = attribute();
                if (optionalPunct(',')) {
                    space = attribute();
                }
            } else {
                space = attribute();
            }
        }
        expectPunct('>');
        if (unranked) {
            return new Type.UnrankedMemRefType(elem, space);
        }
        long[] s = new long[shape.size()];
        for (int i = 0; i < s.length; i++) {
            s[i] = shape.get(i);
        }
        return new Type.MemRefType(s, elem, layout, space);
    }

    private Type dialectType() {
        int off = lx.start;
        if (lx.is(Lexer.BANG_ID, "!llvm.ptr") && lx.byteAt(lx.end) != '<') {
            lx.next();
            return Type.PTR;
        }
        if (lx.is(Lexer.BANG_ID, "!gpu.async.token")) {
            lx.next();
            return Type.ASYNC_TOKEN;
        }
        String name = lx.text().substring(1);
        lx.next();
        TypeDef def = Dialects.type(name);
        if (def != null) {
            return def.parser().parse(this, off);
        }
        Type alias = typeAliases.get(name);
        if (alias != null) {
            return alias;
        }
        throw errorAt(off, "Invalid type (must be a known type or alias): !" + name);
    }
}
