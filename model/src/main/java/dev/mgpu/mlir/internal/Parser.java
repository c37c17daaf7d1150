package dev.mgpu.mlir.internal;

import dev.mgpu.dialect.builtin.Builtin;
import dev.mgpu.ir.Block;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Region;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A recursive-descent parser for MLIR text, working on bytes: the top layer, which reads a whole file of
 * alias definitions and operations.
 *
 * <p>Grammar (the subset; {@code ?} optional, {@code *} repeated):
 * <pre>
 * file        ::= (alias-def | operation)*
 * alias-def   ::= ('#' id '=' attribute) | ('!' id '=' type) | ('#' id '=' 'loc' '(' location ')')
 * operation   ::= (result-list '=')? (generic-op | custom-op) trailing-loc?
 * result-list ::= value-id (':' integer)? (',' value-id (':' integer)?)*
 * generic-op  ::= string '(' value-use* ')' successors? ('&lt;' dict '&gt;')? ('(' region (',' region)* ')')? dict? ':' function-type
 * custom-op   ::= bare-id op-specific-syntax
 * region      ::= '{' entry-ops? block* '}'
 * block       ::= caret-id ('(' value-id ':' type (',' ...)* ')')? ':' operation*
 * value-use   ::= '%' suffix-id ('#' digits)?
 * trailing-loc::= 'loc' '(' location ')'
 * </pre>
 * Each concern is one layer: {@link TokenParser}, {@link TypeParser}, {@link AttributeParser},
 * {@link LocationParser}, {@link OperationParser}.
 */
public final class Parser extends OperationParser {
    public Parser(byte[] buf, int offset, int limit, String file) {
        super(buf, offset, limit, file);
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
        byte[] resources = null;
        while (lx.kind != Lexer.EOF) {
            if ((lx.kind == Lexer.HASH_ID || lx.kind == Lexer.BANG_ID) && isAliasDefinition()) {
                aliasDefinition();
                continue;
            }
            if (lx.isPunct('{') && lx.byteAt(lx.start + 1) == '-' && lx.byteAt(lx.start + 2) == '#') {
                if (resources != null) {
                    throw error("Invalid resource section (must be given once): a second {-#");
                }
                resources = resourceSection();
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
        Operation module;
        if (ops.size() == 1 && ops.get(0).name().equals(Builtin.ModuleOp.NAME)) {
            module = ops.get(0);
        } else {
            module = Operation.create(Builtin.ModuleOp.NAME, start, List.of(), List.of(), Map.of(), 1, List.of());
            Block body = module.region(0).append(new Block(start));
            for (Operation op : ops) {
                body.append(op);
            }
        }
        module.setFileResources(resources);
        return module;
    }

    /**
     * {@code {-# dialect_resources: {...}, external_resources: {...} #-}}, kept as its exact text: its
     * entries are data for the tools that made them, which mgpu carries through and does not read.
     */
    private byte[] resourceSection() {
        int start = lx.start;
        int i = start + 3;
        boolean inString = false;
        while (true) {
            byte c = lx.byteAt(i);
            if (c == 0 && i >= lx.limit) {
                throw errorAt(start, "Invalid resource section (must end with #-}): end of input");
            }
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '/' && lx.byteAt(i + 1) == '/') {
                while (i + 1 < lx.limit && lx.byteAt(i + 1) != '\n') {
                    i++;
                }
            } else if (c == '#' && lx.byteAt(i + 1) == '-' && lx.byteAt(i + 2) == '}') {
                break;
            }
            i++;
        }
        byte[] text = java.util.Arrays.copyOfRange(lx.buf, start, i + 3);
        lx.reset(i + 3);
        lx.next();
        return text;
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

    private void resolveLocationAliases(Operation op) {
        String alias = aliasPlaceholders.get(op.location());
        if (alias != null) {
            op.setLocation(locationAliases.get(alias));
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
