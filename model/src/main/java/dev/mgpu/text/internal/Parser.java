package dev.mgpu.text.internal;

import dev.mgpu.dialect.Dialects;
import dev.mgpu.dialect.OpDef;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Block;
import dev.mgpu.ir.GpuTarget;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.MgpuException;
import dev.mgpu.ir.OffloadingHandler;
import dev.mgpu.ir.OffloadingHandlerAttr;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Region;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A recursive-descent parser for MLIR text, working on bytes.
 *
 * <p>Grammar (the subset; {@code ?} optional, {@code *} repeated):
 * <pre>
 * file        ::= (alias-def | operation)*
 * alias-def   ::= ('#' id '=' attribute) | ('!' id '=' type)
 * operation   ::= (result-list '=')? (generic-op | custom-op) trailing-loc?
 * result-list ::= value-id (':' integer)? (',' value-id (':' integer)?)*
 * generic-op  ::= string '(' value-use* ')' successors? ('&lt;' dict '&gt;')? ('(' region* ')')? dict? ':' function-type
 * custom-op   ::= bare-id op-specific-syntax
 * region      ::= '{' entry-ops? block* '}'
 * block       ::= caret-id ('(' value-id ':' type (',' ...)* ')')? ':' operation*
 * value-use   ::= '%' suffix-id ('#' digits)?
 * trailing-loc::= 'loc' '(' location ')'
 * </pre>
 * Every block name and value name may be used before it is defined; uses are patched when the definition
 * arrives, and anything left undefined when its scope closes is reported at its first use.
 */
public final class Parser {
    private static final String PLACEHOLDER = "mgpu.forward_ref";

    private final Lexer lx;
    private final NameTable names = new NameTable();
    private final Map<String, Attribute> attrAliases = new HashMap<>();
    private final Map<String, Type> typeAliases = new HashMap<>();
    private final Deque<ValueScope> scopes = new ArrayDeque<>();
    private final Deque<String> defaultDialects = new ArrayDeque<>();
    private BlockScope blocks;

    /** A reference to a value by name, not yet resolved to a {@link Value}. */
    public record OperandRef(String name, int number, int offset) {
        @Override
        public String toString() {
            return "%" + name + (number > 0 ? "#" + number : "");
        }
    }

    /** A named, typed argument, as in a function signature or block header. */
    public record Argument(OperandRef name, Type type, Attribute.DictionaryAttr attrs, Location loc) {
    }

    /** Operand {@code index} of {@code op}, which holds a forward reference. */
    private record Use(Operation op, int index) {
    }

    private static final class Forward {
        final Value placeholder;
        final int offset;
        final List<Use> uses = new ArrayList<>();

        Forward(Value placeholder, int offset) {
            this.placeholder = placeholder;
            this.offset = offset;
        }
    }

    private static final class ValueScope {
        final Map<String, List<? extends Value>> values = new HashMap<>();
        final Map<String, Forward> forward = new LinkedHashMap<>();
        final Map<Value, Forward> byPlaceholder = new HashMap<>();
    }

    private static final class BlockScope {
        final Map<String, Block> blocks = new HashMap<>();
        final Map<String, Integer> pending = new LinkedHashMap<>();
        final BlockScope outer;

        BlockScope(BlockScope outer) {
            this.outer = outer;
        }
    }

    public Parser(byte[] buf, int offset, int limit, String file) {
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

    public boolean atValue() {
        return lx.kind == Lexer.PERCENT_ID;
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
        long v = parseIntegerToken(off);
        lx.next();
        return neg ? -v : v;
    }

    private long parseIntegerToken(int off) {
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

    // ---------------------------------------------------------------- values

    public OperandRef operandRef() {
        if (lx.kind != Lexer.PERCENT_ID) {
            throw expected("an SSA value");
        }
        int off = lx.start;
        String name = names.intern(lx.buf, lx.start + 1, lx.end);
        int end = lx.end;
        lx.next();
        int number = 0;
        if (lx.kind == Lexer.HASH_ID && lx.start == end) {
            String n = new String(lx.buf, lx.start + 1, lx.end - lx.start - 1, StandardCharsets.US_ASCII);
            try {
                number = Integer.parseInt(n);
            } catch (NumberFormatException e) {
                throw error("Invalid result number (must be decimal digits): #" + n);
            }
            lx.next();
        }
        return new OperandRef(name, number, off);
    }

    /** Operand references separated by commas, possibly none (stops at anything but a value). */
    public List<OperandRef> operandRefs() {
        List<OperandRef> refs = new ArrayList<>();
        if (lx.kind != Lexer.PERCENT_ID) {
            return refs;
        }
        refs.add(operandRef());
        while (optionalPunct(',')) {
            refs.add(operandRef());
        }
        return refs;
    }

    /** Resolves a reference to a value of the given type, creating a forward reference if needed. */
    public Value resolve(OperandRef ref, Type type) {
        ValueScope s = scopes.peek();
        List<? extends Value> vals = s.values.get(ref.name());
        if (vals != null) {
            if (ref.number() >= vals.size()) {
                throw errorAt(ref.offset(), "Invalid result number (must be below " + vals.size() + "): " + ref);
            }
            Value v = vals.get(ref.number());
            if (type != null && !v.type().equals(type)) {
                throw errorAt(ref.offset(), "Invalid use of " + ref + " (must have its defined type "
                        + v.type() + "): " + type);
            }
            return v;
        }
        if (type == null) {
            throw errorAt(ref.offset(), "Invalid use of " + ref + " (must be defined): undefined value");
        }
        String key = ref.number() == 0 ? ref.name() : ref.name() + "#" + ref.number();
        Forward f = s.forward.get(key);
        if (f == null) {
            Operation ph = Operation.create(PLACEHOLDER, lx.locationOf(ref.offset()), List.of(), List.of(type), Map.of());
            f = new Forward(ph.result(0), ref.offset());
            s.forward.put(key, f);
            s.byPlaceholder.put(f.placeholder, f);
        } else if (!f.placeholder.type().equals(type)) {
            throw errorAt(ref.offset(), "Invalid use of " + ref + " (must have one type at every use: "
                    + f.placeholder.type() + "): " + type);
        }
        return f.placeholder;
    }

    public List<Value> resolve(List<OperandRef> refs, List<Type> types, int offset) {
        if (refs.size() != types.size()) {
            throw errorAt(offset, "Invalid operand list (must have one type per operand, "
                    + refs.size() + " operands): " + types.size() + " types");
        }
        List<Value> out = new ArrayList<>(refs.size());
        for (int i = 0; i < refs.size(); i++) {
            out.add(resolve(refs.get(i), types.get(i)));
        }
        return out;
    }

    public List<Value> resolveAll(List<OperandRef> refs, Type type) {
        List<Value> out = new ArrayList<>(refs.size());
        for (OperandRef r : refs) {
            out.add(resolve(r, type));
        }
        return out;
    }

    /** Binds names to values in the current scope, patching earlier forward uses. */
    private void define(OperandRef name, List<? extends Value> values) {
        ValueScope s = scopes.peek();
        if (s.values.containsKey(name.name())) {
            throw errorAt(name.offset(), "Invalid value name (must be defined once): %" + name.name());
        }
        s.values.put(name.name(), values);
        if (s.forward.isEmpty()) {
            return;
        }
        for (int i = 0; i < values.size(); i++) {
            String key = i == 0 ? name.name() : name.name() + "#" + i;
            Forward f = s.forward.remove(key);
            if (f == null) {
                continue;
            }
            s.byPlaceholder.remove(f.placeholder);
            Value v = values.get(i);
            if (!v.type().equals(f.placeholder.type())) {
                throw errorAt(f.offset, "Invalid use of %" + key + " (must have its defined type " + v.type()
                        + "): " + f.placeholder.type());
            }
            for (Use use : f.uses) {
                use.op().setOperand(use.index(), v);
            }
        }
    }

    private void recordForwardUses(Operation op) {
        ValueScope s = scopes.peek();
        if (s.byPlaceholder.isEmpty()) {
            return;
        }
        for (int i = 0; i < op.operandCount(); i++) {
            Forward f = s.byPlaceholder.get(op.operand(i));
            if (f != null) {
                f.uses.add(new Use(op, i));
            }
        }
    }

    private void pushScope() {
        scopes.push(new ValueScope());
    }

    private void popScope() {
        ValueScope s = scopes.pop();
        if (!s.forward.isEmpty()) {
            Map.Entry<String, Forward> e = s.forward.entrySet().iterator().next();
            throw errorAt(e.getValue().offset, "Invalid use of %" + e.getKey() + " (must be defined): undefined value");
        }
    }

    // ---------------------------------------------------------------- types

    public Type type() {
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
            return builtinType(k) != null || k.equals("memref");
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
        switch (name) {
            case "gpu.async.token":
                return Type.ASYNC_TOKEN;
            case "llvm.void":
                return Type.VOID;
            case "llvm.ptr":
                if (optionalPunct('<')) {
                    long as = integer();
                    expectPunct('>');
                    return new Type.LLVMPointerType((int) as);
                }
                return Type.PTR;
            case "llvm.array": {
                expectPunct('<');
                long n = integer();
                expectKeyword("x");
                Type t = type();
                expectPunct('>');
                return new Type.LLVMArrayType(n, t);
            }
            case "llvm.struct": {
                expectPunct('<');
                boolean packed = optionalKeyword("packed");
                expectPunct('(');
                List<Type> body = new ArrayList<>();
                if (!optionalPunct(')')) {
                    body = typeList();
                    expectPunct(')');
                }
                expectPunct('>');
                return new Type.LLVMStructType(body, packed);
            }
            default:
                break;
        }
        Type alias = typeAliases.get(name);
        if (alias != null) {
            return alias;
        }
        throw errorAt(off, "Invalid type (must be a known type or alias): !" + name);
    }

    // ---------------------------------------------------------------- attributes

    /** Any attribute. */
    public Attribute attribute() {
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
                    case "array":
                        lx.next();
                        return denseArray();
                    case "strided":
                        lx.next();
                        return strided();
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
        long v = parseIntegerToken(lx.start);
        lx.next();
        Type t = Type.I64;
        if (optionalPunct(':')) {
            t = type();
        }
        if (t instanceof Type.FloatType) {
            double d = text.startsWith("0x") ? (t.equals(Type.F32) ? Float.intBitsToFloat((int) v) : Double.longBitsToDouble(v)) : v;
            return new Attribute.FloatAttr(negative ? -d : d, t);
        }
        if (!t.isIntegerOrIndex()) {
            throw errorAt(off, "Invalid integer attribute type (must be an integer or index type): " + t);
        }
        return new Attribute.IntegerAttr(negative ? -v : v, t);
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
                    vals.add(integer());
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
        switch (name) {
            case "nvvm.target":
                return nvvmTarget();
            case "rocdl.target":
                return rocdlTarget();
            case "cpu.target":
                return cpuTarget();
            case "gpu.object":
                return objectAttr();
            case "gpu.select_object": {
                Attribute target = null;
                if (optionalPunct('<')) {
                    target = attribute();
                    expectPunct('>');
                }
                return new OffloadingHandlerAttr.SelectObject(target);
            }
            case "gpu.runtime_select":
                return new OffloadingHandlerAttr.RuntimeSelect();
            case "gpu.address_space": {
                expectPunct('<');
                String s = keyword();
                if (!s.equals("global") && !s.equals("workgroup") && !s.equals("private")) {
                    throw errorAt(off, "Invalid address space (must be global, workgroup or private): " + s);
                }
                expectPunct('>');
                return new Attribute.AddressSpaceAttr(s);
            }
            default:
                break;
        }
        if (OffloadingHandler.lookup(name) != null) {
            Attribute param = null;
            if (optionalPunct('<')) {
                param = attribute();
                expectPunct('>');
            }
            return new OffloadingHandlerAttr.External(name, param);
        }
        Attribute alias = attrAliases.get(name);
        if (alias != null) {
            return alias;
        }
        throw errorAt(off, "Invalid attribute (must be a known attribute or alias): #" + name);
    }

    /** Parses {@code <key = value, ...>} after a parameterised attribute's name. */
    private Map<String, Attribute> params(String attrName, String... allowed) {
        Map<String, Attribute> m = new HashMap<>();
        if (!optionalPunct('<')) {
            return m;
        }
        do {
            int off = lx.start;
            String key = keyword();
            boolean ok = false;
            for (String a : allowed) {
                ok |= a.equals(key);
            }
            if (!ok) {
                throw errorAt(off, "Invalid parameter of " + attrName + " (must be one of "
                        + String.join(", ", allowed) + "): " + key);
            }
            expectPunct('=');
            if (m.put(key, attribute()) != null) {
                throw errorAt(off, "Invalid parameter of " + attrName + " (must be given once): " + key);
            }
        } while (optionalPunct(','));
        expectPunct('>');
        return m;
    }

    private int intParam(Map<String, Attribute> m, String key, int dflt) {
        Attribute a = m.get(key);
        if (a == null) {
            return dflt;
        }
        if (a instanceof Attribute.IntegerAttr i) {
            return (int) i.value();
        }
        throw error("Invalid parameter " + key + " (must be an integer): " + a);
    }

    private String strParam(Map<String, Attribute> m, String key, String dflt) {
        Attribute a = m.get(key);
        if (a == null) {
            return dflt;
        }
        if (a instanceof Attribute.StringAttr s) {
            return s.value();
        }
        throw error("Invalid parameter " + key + " (must be a string): " + a);
    }

    private Attribute.DictionaryAttr dictParam(Map<String, Attribute> m, String key) {
        Attribute a = m.get(key);
        if (a == null || a instanceof Attribute.DictionaryAttr) {
            return (Attribute.DictionaryAttr) a;
        }
        throw error("Invalid parameter " + key + " (must be a dictionary): " + a);
    }

    private Attribute.ArrayAttr arrayParam(Map<String, Attribute> m, String key) {
        Attribute a = m.get(key);
        if (a == null || a instanceof Attribute.ArrayAttr) {
            return (Attribute.ArrayAttr) a;
        }
        throw error("Invalid parameter " + key + " (must be an array): " + a);
    }

    private Attribute nvvmTarget() {
        Map<String, Attribute> m = params("#nvvm.target", "O", "triple", "chip", "features", "flags", "link");
        return new GpuTarget.NVVMTarget(intParam(m, "O", GpuTarget.NVVMTarget.DEFAULT_O),
                strParam(m, "triple", GpuTarget.NVVMTarget.DEFAULT_TRIPLE),
                strParam(m, "chip", GpuTarget.NVVMTarget.DEFAULT_CHIP),
                strParam(m, "features", GpuTarget.NVVMTarget.DEFAULT_FEATURES), dictParam(m, "flags"),
                arrayParam(m, "link"));
    }

    private Attribute rocdlTarget() {
        Map<String, Attribute> m = params("#rocdl.target", "O", "triple", "chip", "features", "abi", "flags", "link");
        return new GpuTarget.ROCDLTarget(intParam(m, "O", GpuTarget.ROCDLTarget.DEFAULT_O),
                strParam(m, "triple", GpuTarget.ROCDLTarget.DEFAULT_TRIPLE),
                strParam(m, "chip", GpuTarget.ROCDLTarget.DEFAULT_CHIP),
                strParam(m, "features", GpuTarget.ROCDLTarget.DEFAULT_FEATURES),
                strParam(m, "abi", GpuTarget.ROCDLTarget.DEFAULT_ABI), dictParam(m, "flags"), arrayParam(m, "link"));
    }

    private Attribute cpuTarget() {
        Map<String, Attribute> m = params("#cpu.target", "O", "triple");
        return new GpuTarget.CpuTarget(intParam(m, "O", GpuTarget.CpuTarget.DEFAULT_O),
                strParam(m, "triple", GpuTarget.CpuTarget.DEFAULT_TRIPLE));
    }

    private Attribute objectAttr() {
        expectPunct('<');
        Attribute target = attribute();
        expectPunct(',');
        Attribute.DictionaryAttr props = null;
        Attribute.ObjectFormat format = Attribute.ObjectFormat.FATBIN;
        byte[] blob = null;
        while (true) {
            int off = lx.start;
            if (lx.kind == Lexer.STRING) {
                if (blob != null) {
                    throw errorAt(off, "Invalid #gpu.object (must hold one blob): a second string");
                }
                blob = stringBytes();
            } else if (atKeyword("properties")) {
                lx.next();
                expectPunct('=');
                props = new Attribute.DictionaryAttr(dictionary());
            } else if (lx.kind == Lexer.BARE_ID) {
                String k = keyword();
                Attribute.ObjectFormat f = Attribute.ObjectFormat.fromKeyword(k);
                if (f == null) {
                    throw errorAt(off, "Invalid #gpu.object format (must be offload, assembly, bin or fatbin): " + k);
                }
                expectPunct('=');
                format = f;
                if (lx.kind != Lexer.STRING) {
                    throw expected("the object's string");
                }
                continue;
            } else {
                throw expected("the object's string");
            }
            if (!optionalPunct(',')) {
                break;
            }
        }
        expectPunct('>');
        if (blob == null) {
            throw error("Invalid #gpu.object (must hold a blob string): none");
        }
        return new Attribute.ObjectAttr(target, format, props, new Attribute.StringAttr(blob));
    }

    // ---------------------------------------------------------------- locations

    /** {@code loc(...)} when present; returns {@code dflt} otherwise. */
    public Location optionalTrailingLocation(Location dflt) {
        if (!atKeyword("loc")) {
            return dflt;
        }
        lx.next();
        expectPunct('(');
        Location l = locationBody();
        expectPunct(')');
        return l;
    }

    private Location locationBody() {
        if (optionalKeyword("unknown")) {
            return Location.UNKNOWN;
        }
        if (lx.kind == Lexer.HASH_ID) {
            int off = lx.start;
            String name = lx.text().substring(1);
            lx.next();
            Location l = locationAliases.get(name);
            if (l != null) {
                return l;
            }
            // Location aliases usually follow the module that uses them; resolved in parseFile.
            pendingLocationAliases.put(name, off);
            return new Location.Named(ALIAS_PREFIX + name, Location.UNKNOWN);
        }
        if (atKeyword("fused")) {
            lx.next();
            if (optionalPunct('<')) {
                attribute();
                expectPunct('>');
            }
            expectPunct('[');
            Location first = locationBody();
            while (optionalPunct(',')) {
                locationBody();
            }
            expectPunct(']');
            return first;
        }
        if (atKeyword("callsite")) {
            lx.next();
            expectPunct('(');
            Location callee = locationBody();
            expectKeyword("at");
            locationBody();
            expectPunct(')');
            return callee;
        }
        String s = string();
        if (optionalPunct(':')) {
            long line = integer();
            expectPunct(':');
            long col = integer();
            return Location.of(s, (int) line, (int) col);
        }
        Location child = Location.UNKNOWN;
        if (optionalPunct('(')) {
            child = locationBody();
            expectPunct(')');
        }
        return new Location.Named(s, child);
    }


    // ---------------------------------------------------------------- blocks and regions

    /**
     * Parses {@code { ... }} into {@code region}. {@code entryArgs}, when not null, are defined as the
     * entry block's arguments. When {@code isolated}, values from outside are not visible.
     */
    public void region(Region region, List<Argument> entryArgs, boolean isolated) {
        expectPunct('{');
        if (isolated) {
            pushScope();
        }
        BlockScope outerBlocks = blocks;
        blocks = new BlockScope(outerBlocks);
        try {
            if (optionalPunct('}')) {
                if (entryArgs != null && !entryArgs.isEmpty()) {
                    throw error("Invalid region (must have an entry block for its arguments): empty region");
                }
                return;
            }
            Block entry = null;
            if (lx.kind != Lexer.CARET_ID || entryArgs != null) {
                entry = region.append(new Block(location()));
                if (entryArgs != null) {
                    for (Argument a : entryArgs) {
                        Value v = entry.addArgument(a.type(), a.loc());
                        define(a.name(), List.of(v));
                    }
                }
                operations(entry);
            }
            while (lx.kind == Lexer.CARET_ID) {
                blockWithLabel(region, entry != null || region.blocks().size() > 0);
            }
            expectPunct('}');
            if (!blocks.pending.isEmpty()) {
                Map.Entry<String, Integer> e = blocks.pending.entrySet().iterator().next();
                throw errorAt(e.getValue(), "Invalid successor (must name a block of its region): ^" + e.getKey());
            }
        } finally {
            blocks = outerBlocks;
        }
        if (isolated) {
            popScope();
        }
    }

    private void blockWithLabel(Region region, boolean hasEntry) {
        int off = lx.start;
        String name = lx.text().substring(1);
        lx.next();
        Block b = blocks.blocks.get(name);
        if (b != null && !blocks.pending.containsKey(name)) {
            throw errorAt(off, "Invalid block name (must be defined once): ^" + name);
        }
        if (b == null) {
            b = new Block(lx.locationOf(off));
            blocks.blocks.put(name, b);
        } else {
            b.setLocation(lx.locationOf(off));
        }
        blocks.pending.remove(name);
        region.append(b);
        if (optionalPunct('(')) {
            if (!optionalPunct(')')) {
                do {
                    OperandRef r = operandRef();
                    expectPunct(':');
                    Type t = type();
                    Location l = optionalTrailingLocation(lx.locationOf(r.offset()));
                    define(r, List.of(b.addArgument(t, l)));
                } while (optionalPunct(','));
                expectPunct(')');
            }
        }
        expectPunct(':');
        operations(b);
    }

    /** {@code ^bb} as a branch target; may be defined later in the region. */
    public Block successor() {
        if (lx.kind != Lexer.CARET_ID) {
            throw expected("a block name");
        }
        String name = lx.text().substring(1);
        int off = lx.start;
        lx.next();
        if (blocks == null) {
            throw errorAt(off, "Invalid successor (must be inside a region): ^" + name);
        }
        Block b = blocks.blocks.get(name);
        if (b == null) {
            b = new Block();
            blocks.blocks.put(name, b);
            blocks.pending.put(name, off);
        }
        return b;
    }

    /** {@code ^bb} optionally followed by {@code (%v, ... : T, ...)}; the values are appended to {@code operands}. */
    public Block successorWithOperands(List<Value> operands) {
        Block b = successor();
        if (optionalPunct('(')) {
            int off = lx.start;
            List<OperandRef> refs = operandRefs();
            expectPunct(':');
            List<Type> types = typeList();
            expectPunct(')');
            operands.addAll(resolve(refs, types, off));
        }
        return b;
    }

    /** A parenthesised argument list: {@code (%a: T {attrs}, ...)} or, for declarations, {@code (T, ...)}. */
    public List<Argument> argumentList(boolean allowTypesOnly) {
        expectPunct('(');
        List<Argument> args = new ArrayList<>();
        if (optionalPunct(')')) {
            return args;
        }
        do {
            Location l = location();
            if (lx.kind == Lexer.PERCENT_ID) {
                OperandRef r = operandRef();
                expectPunct(':');
                Type t = type();
                Attribute.DictionaryAttr attrs = lx.isPunct('{') ? new Attribute.DictionaryAttr(dictionary()) : null;
                l = optionalTrailingLocation(l);
                args.add(new Argument(r, t, attrs, l));
            } else if (allowTypesOnly) {
                Type t = type();
                Attribute.DictionaryAttr attrs = lx.isPunct('{') ? new Attribute.DictionaryAttr(dictionary()) : null;
                args.add(new Argument(null, t, attrs, l));
            } else {
                throw expected("an argument '%name: type'");
            }
        } while (optionalPunct(','));
        expectPunct(')');
        return args;
    }

    // ---------------------------------------------------------------- operations

    private void operations(Block b) {
        while (lx.kind != Lexer.CARET_ID && !lx.isPunct('}') && lx.kind != Lexer.EOF) {
            b.append(operation());
        }
    }

    /** One operation, with its results bound to their names. */
    public Operation operation() {
        int off = lx.start;
        List<OperandRef> names = List.of();
        List<Integer> counts = List.of();
        int total = 0;
        if (lx.kind == Lexer.PERCENT_ID) {
            names = new ArrayList<>(1);
            counts = new ArrayList<>(1);
            do {
                OperandRef r = operandRef();
                int n = 1;
                if (optionalPunct(':')) {
                    n = (int) integer();
                    if (n < 1) {
                        throw errorAt(r.offset(), "Invalid result group (must have at least one result): " + n);
                    }
                }
                names.add(r);
                counts.add(n);
                total += n;
            } while (optionalPunct(','));
            expectPunct('=');
        }
        int opOff = lx.start;
        Location loc = lx.locationOf(opOff);
        Operation op;
        if (lx.kind == Lexer.STRING) {
            op = genericOperation(loc);
        } else if (lx.kind == Lexer.BARE_ID) {
            String name = lx.text();
            OpDef def = Dialects.lookup(name);
            if (def == null && name.indexOf('.') < 0 && !defaultDialects.isEmpty() && defaultDialects.peek() != null) {
                def = Dialects.lookup(defaultDialects.peek() + "." + name);
            }
            if (def == null && name.indexOf('.') < 0) {
                def = Dialects.lookup("builtin." + name);
            }
            if (def == null || def.parser() == null) {
                throw errorAt(opOff, "Invalid operation (must be a registered op or in generic form): " + name);
            }
            lx.next();
            final OpDef found = def;
            final int named = total;
            op = withDefaultDialect(found, () -> found.parser().parse(this, named, loc));
        } else {
            throw expected("an operation");
        }
        op.setLocation(optionalTrailingLocation(op.location()));
        if (total != 0 && op.resultCount() != total) {
            throw errorAt(off, "Invalid result list (must name the " + op.resultCount() + " results of "
                    + op.name() + "): " + total + " names");
        }
        recordForwardUses(op);
        int k = 0;
        for (int i = 0; i < names.size(); i++) {
            int n = counts.get(i);
            define(names.get(i), op.results().subList(k, k + n));
            k += n;
        }
        return op;
    }

    private <T> T withDefaultDialect(OpDef def, java.util.function.Supplier<T> body) {
        boolean push = def.defaultDialect() != null || def.isIsolatedFromAbove();
        if (push) {
            defaultDialects.push(def.defaultDialect() == null ? "" : def.defaultDialect());
        }
        try {
            return body.get();
        } finally {
            if (push) {
                defaultDialects.pop();
            }
        }
    }

    private Operation genericOperation(Location loc) {
        String name = string();
        OpDef def = Dialects.lookup(name);
        expectPunct('(');
        int opsOff = lx.start;
        List<OperandRef> refs = operandRefs();
        expectPunct(')');
        List<Block> succ = new ArrayList<>();
        if (optionalPunct('[')) {
            do {
                succ.add(successor());
            } while (optionalPunct(','));
            expectPunct(']');
        }
        Map<String, Attribute> attrs = new LinkedHashMap<>();
        if (lx.isPunct('<') ) {
            lx.next();
            attrs.putAll(dictionary());
            expectPunct('>');
        }
        int regionStart = -1;
        if (lx.isPunct('(')) {
            regionStart = lx.start;
            // Regions are parsed after the op exists, so skip them for now and come back.
            skipBalanced();
        }
        attrs.putAll(optionalDictionary());
        expectPunct(':');
        int typeOff = lx.start;
        Type.FunctionType ft = functionType();
        List<Value> operands = resolve(refs, ft.inputs(), opsOff == typeOff ? typeOff : opsOff);
        int regionCount = 0;
        int resume = lx.start;
        if (regionStart >= 0) {
            lx.reset(regionStart);
            lx.next();
            expectPunct('(');
            regionCount = countRegions();
        }
        Operation op = Operation.create(name, loc, operands, ft.results(), attrs, regionCount, succ);
        if (regionStart >= 0) {
            lx.reset(regionStart);
            lx.next();
            expectPunct('(');
            boolean isolated = def == null || def.isIsolatedFromAbove();
            final Operation fop = op;
            withDefaultDialect(def == null ? OpDef.of(name).isolatedFromAbove() : def, () -> {
                for (int i = 0; i < fop.regions().size(); i++) {
                    if (i > 0) {
                        expectPunct(',');
                    }
                    region(fop.region(i), null, isolated);
                }
                return null;
            });
            expectPunct(')');
            lx.reset(resume);
            lx.next();
        }
        return op;
    }

    /** Skips a balanced bracket group starting at the current token. */
    private void skipBalanced() {
        int depth = 0;
        do {
            if (lx.kind == Lexer.EOF) {
                throw expected("a closing bracket");
            }
            if (lx.kind == Lexer.PUNCT) {
                byte c = lx.buf[lx.start];
                if (c == '(' || c == '[' || c == '{' || c == '<') {
                    depth++;
                } else if (c == ')' || c == ']' || c == '}' || c == '>') {
                    depth--;
                }
            }
            lx.next();
        } while (depth > 0);
    }

    private int countRegions() {
        int n = 0;
        while (!lx.isPunct(')')) {
            if (n > 0) {
                expectPunct(',');
            }
            skipBalanced();
            n++;
        }
        return n;
    }

    // ---------------------------------------------------------------- top level

    /**
     * Parses a whole input. A single top-level {@code module} is returned as is; other top-level
     * operations are wrapped in an implicit module.
     */
    public Operation parseFile() {
        pushScope();
        blocks = new BlockScope(null);
        List<Operation> ops = new ArrayList<>();
        Location start = location();
        while (lx.kind != Lexer.EOF) {
            if ((lx.kind == Lexer.HASH_ID || lx.kind == Lexer.BANG_ID) && isAliasDefinition()) {
                aliasDefinition();
                continue;
            }
            ops.add(operation());
        }
        popScope();
        for (Map.Entry<String, Integer> e : pendingLocationAliases.entrySet()) {
            if (!locationAliases.containsKey(e.getKey())) {
                throw errorAt(e.getValue(), "Invalid location (must be a defined location alias): #" + e.getKey());
            }
        }
        if (!pendingLocationAliases.isEmpty()) {
            for (Operation op : ops) {
                resolveLocationAliases(op);
            }
        }
        if (!blocks.pending.isEmpty()) {
            Map.Entry<String, Integer> e = blocks.pending.entrySet().iterator().next();
            throw errorAt(e.getValue(), "Invalid successor (must name a block of its region): ^" + e.getKey());
        }
        if (ops.size() == 1 && ops.get(0).name().equals("builtin.module")) {
            return ops.get(0);
        }
        Operation module = Operation.create("builtin.module", start, List.of(), List.of(), Map.of(), 1, List.of());
        Block body = module.region(0).append(new Block(start));
        for (Operation op : ops) {
            body.append(op);
        }
        return module;
    }

    private boolean isAliasDefinition() {
        int save = lx.start;
        int kind = lx.kind;
        int s = lx.start;
        int e = lx.end;
        lx.next();
        boolean alias = lx.isPunct('=');
        lx.reset(save);
        lx.next();
        assert lx.kind == kind && lx.start == s && lx.end == e;
        return alias;
    }

    private void aliasDefinition() {
        boolean isType = lx.kind == Lexer.BANG_ID;
        int off = lx.start;
        String name = lx.text().substring(1);
        lx.next();
        expectPunct('=');
        if (isType) {
            if (typeAliases.containsKey(name)) {
                throw errorAt(off, "Invalid alias (must be defined once): !" + name);
            }
            typeAliases.put(name, type());
        } else {
            if (attrAliases.containsKey(name)) {
                throw errorAt(off, "Invalid alias (must be defined once): #" + name);
            }
            if (atKeyword("loc")) {
                lx.next();
                expectPunct('(');
                Location l = locationBody();
                expectPunct(')');
                if (locationAliases.put(name, l) != null) {
                    throw errorAt(off, "Invalid alias (must be defined once): #" + name);
                }
                return;
            }
            attrAliases.put(name, attribute());
        }
    }

    private static final String ALIAS_PREFIX = "\0#";
    private final Map<String, Location> locationAliases = new HashMap<>();
    private final Map<String, Integer> pendingLocationAliases = new LinkedHashMap<>();

    private void resolveLocationAliases(Operation op) {
        if (op.location() instanceof Location.Named n && n.name().startsWith(ALIAS_PREFIX)) {
            op.setLocation(locationAliases.get(n.name().substring(ALIAS_PREFIX.length())));
        }
        for (Region r : op.regions()) {
            for (Block b : r.blocks()) {
                for (Operation o : b.operations()) {
                    resolveLocationAliases(o);
                }
            }
        }
    }
}
