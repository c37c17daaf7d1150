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
        if (ops.size() == 1 && ops.get(0).name().equals(Builtin.ModuleOp.NAME)) {
            return ops.get(0);
        }
        Operation module = Operation.create(Builtin.ModuleOp.NAME, start, List.of(), List.of(), Map.of(), 1, List.of());
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
