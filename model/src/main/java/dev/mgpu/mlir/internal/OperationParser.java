package dev.mgpu.mlir.internal;

import dev.mgpu.dialect.Dialects;
import dev.mgpu.op.OpDef;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Block;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Region;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import dev.mgpu.text.OpAsmParser;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Operations, their regions and blocks, and SSA values. Every block name and value name may be used
 * before it is defined; uses are patched when the definition arrives, and anything left undefined when
 * its scope closes is reported at its first use. Regions are parsed detached and given to the op when it
 * is created, as an op's custom parser and the generic form both do.
 */
abstract class OperationParser extends LocationParser implements OpAsmParser {
    private static final String PLACEHOLDER = "mgpu.forward_ref";

    private final NameTable names = new NameTable();
    private final Deque<ValueScope> scopes = new ArrayDeque<>();
    private final Deque<String> defaultDialects = new ArrayDeque<>();
    protected BlockScope blocks;

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
        /**
         * The names defined in each region of this scope being parsed that is not isolated, innermost
         * first: they go out of scope when their region ends, so a sibling region may use them again.
         */
        final Deque<List<String>> regions = new ArrayDeque<>();
        final Map<String, Forward> forward = new LinkedHashMap<>();
        final Map<Value, Forward> byPlaceholder = new HashMap<>();
    }

    protected static final class BlockScope {
        final Map<String, Block> blocks = new HashMap<>();
        final Map<String, Integer> pending = new LinkedHashMap<>();
        final BlockScope outer;

        BlockScope(BlockScope outer) {
            this.outer = outer;
        }
    }

    OperationParser(byte[] buf, int offset, int limit, String file) {
        super(buf, offset, limit, file);
    }

    @Override
    public boolean atValue() {
        return lx.kind == Lexer.PERCENT_ID;
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
            // Digits alone: Integer.parseInt would also take a sign, and #-1 reached a list as index -1.
            try {
                number = n.isEmpty() || !n.chars().allMatch(c -> c >= '0' && c <= '9') ? -1 : Integer.parseInt(n);
            } catch (NumberFormatException e) {
                number = -1;
            }
            if (number < 0) {
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
        if (!s.regions.isEmpty()) {
            s.regions.peek().add(name.name());
        }
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

    protected void pushScope() {
        scopes.push(new ValueScope());
    }

    protected void popScope() {
        ValueScope s = scopes.pop();
        if (!s.forward.isEmpty()) {
            Map.Entry<String, Forward> e = s.forward.entrySet().iterator().next();
            throw errorAt(e.getValue().offset, "Invalid use of %" + e.getKey() + " (must be defined): undefined value");
        }
    }

    // ---------------------------------------------------------------- blocks and regions

    /**
     * Parses {@code { ... }} into a new detached region. {@code entryArgs}, when not null, are defined as
     * the entry block's arguments. When {@code isolated}, values from outside are not visible.
     */
    @Override
    public Region region(List<Argument> entryArgs, boolean isolated) {
        enter(lx.start);
        try {
            return regionBody(entryArgs, isolated, false);
        } finally {
            leave();
        }
    }

    @Override
    public Region regionWithEntry(List<Argument> entryArgs, boolean isolated) {
        enter(lx.start);
        try {
            return regionBody(entryArgs, isolated, true);
        } finally {
            leave();
        }
    }

    private Region regionBody(List<Argument> entryArgs, boolean isolated, boolean emptyEntry) {
        Region region = new Region();
        expectPunct('{');
        ValueScope enclosing = isolated ? null : scopes.peek();
        if (isolated) {
            pushScope();
        } else {
            enclosing.regions.push(new ArrayList<>());
        }
        BlockScope outerBlocks = blocks;
        blocks = new BlockScope(outerBlocks);
        try {
            if (optionalPunct('}')) {
                if (emptyEntry && entryArgs != null) {
                    Block entry = region.append(new Block(location()));
                    for (Argument a : entryArgs) {
                        entry.addArgument(a.type(), a.loc());
                    }
                } else if (entryArgs != null && !entryArgs.isEmpty()) {
                    throw error("Invalid region (must have an entry block for its arguments): empty region");
                }
            } else {
                blocks(region, entryArgs);
            }
        } finally {
            blocks = outerBlocks;
            if (!isolated) {
                // The enclosing scope, even when an error left an isolated region's scope on the stack.
                for (String name : enclosing.regions.pop()) {
                    enclosing.values.remove(name);
                }
            }
        }
        if (isolated) {
            popScope();
        }
        return region;
    }

    /**
     * The blocks of a region up to its closing brace. As upstream's parser, a label may name the entry block
     * only where the op gives it no arguments (none, or an empty list: the label then brings its own).
     */
    private void blocks(Region region, List<Argument> entryArgs) {
        Block entry = null;
        if (lx.kind == Lexer.CARET_ID && entryArgs != null && !entryArgs.isEmpty()) {
            throw error("Invalid block name (must not name the entry block of a region whose arguments the op"
                    + " gives): " + lx.text());
        }
        if (lx.kind != Lexer.CARET_ID) {
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
        List<Region> regions = new ArrayList<>();
        if (optionalPunct('(') && !optionalPunct(')')) {
            boolean isolated = def == null || def.isIsolatedFromAbove();
            withDefaultDialect(def == null ? OpDef.of(name).isolatedFromAbove() : def, () -> {
                do {
                    regions.add(region(null, isolated));
                } while (optionalPunct(','));
                return null;
            });
            expectPunct(')');
        }
        attrs.putAll(optionalDictionary());
        expectPunct(':');
        int typeOff = lx.start;
        Type.FunctionType ft = functionType();
        List<Value> operands = resolve(refs, ft.inputs(), opsOff == typeOff ? typeOff : opsOff);
        Map<String, Attribute> own = def == null ? attrs : def.fromGenericAttributes(attrs);
        return Operation.create(name, loc, operands, ft.results(), own, regions, succ);
    }

}
