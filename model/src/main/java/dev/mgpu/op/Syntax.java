package dev.mgpu.op;

import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Block;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Region;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import dev.mgpu.text.OpAsmParser;
import dev.mgpu.text.OpAsmPrinter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Pieces of custom syntax and rules shared by the ops of several dialects: functions, calls, returns. */
public final class Syntax {
    private Syntax() {
    }

    /**
     * The types of some values.
     *
     * @param vs the values
     * @return their types, in order
     */
    public static List<Type> types(List<? extends Value> vs) {
        List<Type> t = new ArrayList<>(vs.size());
        for (Value v : vs) {
            t.add(v.type());
        }
        return t;
    }

    /**
     * Parses a function: {@code [keywords] @name(args) [-> results] [extra] [attributes {...}] [{body}]}.
     * {@code keywordAttr} names the attribute set from an optional leading keyword ({@code private},
     * {@code internal}); {@code afterSignature} reads op-specific keywords (like {@code kernel}).
     *
     * @param p the parser, after the op's name
     * @param loc the op's location
     * @param opName the op's name
     * @param keywordAttr the attribute a leading keyword is stored in
     * @param keywords the leading keywords accepted
     * @param afterSignature reads op-specific keywords after the signature into the attributes, or null
     * @param allowVoidResult whether a {@code !llvm.void} result means no result
     * @return the new, detached function op
     * @throws dev.mgpu.ir.MgpuException if the text is not a valid function
     */
    public static Operation function(OpAsmParser p, Location loc, String opName, String keywordAttr, Set<String> keywords,
            java.util.function.Consumer<Map<String, Attribute>> afterSignature, boolean allowVoidResult) {
        return function(p, loc, opName, keywordAttr, keywords, null, afterSignature, allowVoidResult, false);
    }

    /** Reads what follows a signature and adds entry-block arguments (gpu.func's memory attributions). */
    @FunctionalInterface
    public interface ExtraArguments {
        /**
         * Parses the extra entry-block arguments, storing what else it reads in {@code attrs}.
         *
         * @param attrs the attributes of the function being parsed
         * @return the extra arguments, in order
         */
        List<OpAsmParser.Argument> parse(Map<String, Attribute> attrs);
    }

    /**
     * As the 9-argument form, with {@code extra} reading entry-block arguments after the signature.
     *
     * @param p the parser, after the op's name
     * @param loc the op's location
     * @param opName the op's name
     * @param keywordAttr the attribute a leading keyword is stored in
     * @param keywords the leading keywords accepted
     * @param beforeName reads op-specific keywords before the name into the attributes, or null
     * @param extra reads entry-block arguments after the signature, or null
     * @param afterSignature reads op-specific keywords after the signature into the attributes, or null
     * @param allowVoidResult whether a {@code !llvm.void} result means no result
     * @param bodyRequired whether the function must have a body
     * @return the new, detached function op
     * @throws dev.mgpu.ir.MgpuException if the text is not a valid function
     */
    public static Operation function(OpAsmParser p, Location loc, String opName, String keywordAttr, Set<String> keywords,
            java.util.function.Consumer<Map<String, Attribute>> beforeName, ExtraArguments extra,
            java.util.function.Consumer<Map<String, Attribute>> afterSignature, boolean allowVoidResult,
            boolean bodyRequired) {
        return parseFunction(p, loc, opName, keywordAttr, keywords, beforeName, extra, afterSignature, allowVoidResult,
                bodyRequired);
    }

    /**
     * As {@link #function(OpAsmParser, Location, String, String, Set, java.util.function.Consumer, boolean)},
     * with {@code beforeName} reading op-specific keywords between the leading keyword and the name, and a
     * body required when {@code bodyRequired}. A declaration may name its arguments; the names are dropped.
     *
     * @param p the parser, after the op's name
     * @param loc the op's location
     * @param opName the op's name
     * @param keywordAttr the attribute a leading keyword is stored in
     * @param keywords the leading keywords accepted
     * @param beforeName reads op-specific keywords before the name into the attributes, or null
     * @param afterSignature reads op-specific keywords after the signature into the attributes, or null
     * @param allowVoidResult whether a {@code !llvm.void} result means no result
     * @param bodyRequired whether the function must have a body
     * @return the new, detached function op
     * @throws dev.mgpu.ir.MgpuException if the text is not a valid function
     */
    public static Operation function(OpAsmParser p, Location loc, String opName, String keywordAttr, Set<String> keywords,
            java.util.function.Consumer<Map<String, Attribute>> beforeName,
            java.util.function.Consumer<Map<String, Attribute>> afterSignature, boolean allowVoidResult,
            boolean bodyRequired) {
        return parseFunction(p, loc, opName, keywordAttr, keywords, beforeName, null, afterSignature, allowVoidResult,
                bodyRequired);
    }

    private static Operation parseFunction(OpAsmParser p, Location loc, String opName, String keywordAttr,
            Set<String> keywords, java.util.function.Consumer<Map<String, Attribute>> beforeName, ExtraArguments extra,
            java.util.function.Consumer<Map<String, Attribute>> afterSignature, boolean allowVoidResult,
            boolean bodyRequired) {
        Map<String, Attribute> attrs = new LinkedHashMap<>();
        String kw = p.peekKeyword();
        if (kw != null && keywords.contains(kw)) {
            p.keyword();
            attrs.put(keywordAttr, Attribute.StringAttr.of(kw));
        }
        if (beforeName != null) {
            beforeName.accept(attrs);
        }
        String name = p.symbolName();
        List<OpAsmParser.Argument> args = p.argumentList(true);
        List<Type> results = new ArrayList<>();
        if (p.optionalArrow()) {
            results.addAll(p.resultTypes());
            if (allowVoidResult && results.size() == 1 && results.get(0).equals(Type.VOID)) {
                results.clear();
            }
        }
        List<OpAsmParser.Argument> extraArgs = extra == null ? List.of() : extra.parse(attrs);
        if (afterSignature != null) {
            afterSignature.accept(attrs);
        }
        attrs.putAll(p.optionalAttributesKeyword());
        attrs.put("sym_name", Attribute.StringAttr.of(name));
        List<Type> inputs = new ArrayList<>();
        boolean named = !args.isEmpty() && args.get(0).name() != null;
        List<Attribute> argAttrs = new ArrayList<>();
        boolean anyArgAttrs = false;
        for (OpAsmParser.Argument a : args) {
            if ((a.name() != null) != named) {
                throw p.errorAt(p.offset(), "Invalid argument list (must name all arguments or none): " + name);
            }
            inputs.add(a.type());
            argAttrs.add(a.attrs() == null ? Attribute.DictionaryAttr.EMPTY : a.attrs());
            anyArgAttrs |= a.attrs() != null;
        }
        if (anyArgAttrs) {
            attrs.put("arg_attrs", new Attribute.ArrayAttr(argAttrs));
        }
        attrs.put("function_type", new Attribute.TypeAttr(new Type.FunctionType(inputs, results)));
        Region body = new Region();
        if (p.atPunct('{')) {
            if (!named && !args.isEmpty() && extra != null) {
                throw p.error("Invalid function body (must follow named arguments): @" + name);
            }
            // Arguments given as types only leave the entry block to the body, which names it and its own
            // arguments (^bb0(%a: f32):), as upstream's function syntax does; the verifier compares the two.
            List<OpAsmParser.Argument> entry = new ArrayList<>(named ? args : List.of());
            entry.addAll(extraArgs);
            body = p.region(entry, true);
            if (body.isEmpty()) {
                body.append(new Block(loc));
            }
        } else if (bodyRequired) {
            throw p.expected("the body '{' of " + opName + " @" + name);
        }
        return Operation.create(opName, loc, List.of(), List.of(), attrs, List.of(body), List.of());
    }

    static final Set<String> FUNCTION_ELIDED = Set.of("sym_name", "function_type", "sym_visibility", "linkage",
            "arg_attrs");

    /**
     * Prints what {@link #function} parses; {@code keywordAttr}'s value is printed before the name.
     *
     * @param p the printer
     * @param op the function op
     * @param keywordAttr the attribute whose value is printed before the name, unless it is {@code external}; or null
     * @param elided the attributes printed by the syntax, left out of the attribute dictionary
     * @param afterSignature writes op-specific keywords after the signature, or null
     */
    public static void printFunction(OpAsmPrinter p, Operation op, String keywordAttr, Set<String> elided,
            java.util.function.Consumer<OpAsmPrinter> afterSignature) {
        printFunction(p, op, keywordAttr, elided, null, afterSignature);
    }

    /**
     * Prints what {@link #function} parses, with {@code beforeName} writing what comes before the name.
     *
     * @param p the printer
     * @param op the function op
     * @param keywordAttr the attribute whose value is printed before the name, unless it is {@code external}; or null
     * @param elided the attributes printed by the syntax, left out of the attribute dictionary
     * @param beforeName writes op-specific keywords before the name, or null
     * @param afterSignature writes op-specific keywords after the signature, or null
     */
    public static void printFunction(OpAsmPrinter p, Operation op, String keywordAttr, Set<String> elided,
            java.util.function.Consumer<OpAsmPrinter> beforeName, java.util.function.Consumer<OpAsmPrinter> afterSignature) {
        Attribute kw = keywordAttr == null ? null : op.attr(keywordAttr);
        if (kw instanceof Attribute.StringAttr s && !s.value().equals("external")) {
            p.write(' ').write(s.value());
        }
        if (beforeName != null) {
            beforeName.accept(p);
        }
        p.write(' ').symbol(op.symbolName());
        Type.FunctionType ft = (Type.FunctionType) ((Attribute.TypeAttr) op.attr("function_type")).type();
        Attribute.ArrayAttr argAttrs = op.attr("arg_attrs") instanceof Attribute.ArrayAttr a ? a : null;
        boolean body = !op.region(0).isEmpty();
        p.write('(');
        for (int i = 0; i < ft.inputs().size(); i++) {
            if (i > 0) {
                p.write(", ");
            }
            if (body) {
                p.operand(op.region(0).entry().argument(i)).write(": ");
            }
            p.type(ft.inputs().get(i));
            if (argAttrs != null && i < argAttrs.size() && argAttrs.get(i) instanceof Attribute.DictionaryAttr d
                    && !d.isEmpty()) {
                p.write(' ').attr(d);
            }
        }
        p.write(')');
        if (!ft.results().isEmpty()) {
            p.write(" -> ");
            if (ft.results().size() == 1 && !(ft.results().get(0) instanceof Type.FunctionType)) {
                p.type(ft.results().get(0));
            } else {
                p.write('(').types(ft.results()).write(')');
            }
        }
        if (afterSignature != null) {
            afterSignature.accept(p);
        }
        java.util.Set<String> all = new java.util.HashSet<>(FUNCTION_ELIDED);
        all.addAll(elided);
        p.attrDict(op, all, true);
        if (body) {
            p.write(' ').region(op.region(0), false);
        }
    }

    /**
     * The function type of a function op.
     *
     * @param fn the function op
     * @return its {@code function_type}, or null if it has none
     */
    public static Type.FunctionType functionType(Operation fn) {
        return fn.attr("function_type") instanceof Attribute.TypeAttr t && t.type() instanceof Type.FunctionType f
                ? f : null;
    }

    /**
     * {@code @callee(%args) [attrs] : (T) -> R}; a {@code !llvm.void} result means none.
     *
     * @param p the parser, after the op's name
     * @param loc the op's location
     * @param name the op's name
     * @return the new, detached call op
     * @throws dev.mgpu.ir.MgpuException if the text is not a valid call
     */
    public static Operation parseCall(OpAsmParser p, Location loc, String name) {
        Attribute.SymbolRefAttr callee = p.symbolRef();
        p.expectPunct('(');
        int off = p.offset();
        List<OpAsmParser.OperandRef> refs = p.operandRefs();
        p.expectPunct(')');
        Map<String, Attribute> attrs = new LinkedHashMap<>(p.optionalDictionary());
        attrs.put("callee", callee);
        p.expectPunct(':');
        Type.FunctionType ft = p.functionType();
        List<Type> results = new ArrayList<>(ft.results());
        if (results.size() == 1 && results.get(0).equals(Type.VOID)) {
            results.clear();
        }
        return Operation.create(name, loc, p.resolve(refs, ft.inputs(), off), results, attrs);
    }

    /**
     * Prints what {@link #parseCall} parses.
     *
     * @param p the printer
     * @param op the call op
     */
    public static void printCall(OpAsmPrinter p, Operation op) {
        p.write(' ').attr(op.attr("callee")).write('(').operands(op.operands()).write(')');
        p.attrDict(op, Set.of("callee"));
        p.write(" : ").type(new Type.FunctionType(types(op.operands()), types(op.results())));
    }

    /**
     * Checks that a call names a function of kind {@code calleeOp} and matches its type.
     *
     * @param op the call op
     * @param ctx where errors are reported
     * @param calleeOp the name of the function op the callee must be
     * @param what the callee's kind in error messages, such as {@code a func.func}
     */
    public static void verifyCall(Operation op, VerifyContext ctx, String calleeOp, String what) {
        if (!(op.attr("callee") instanceof Attribute.SymbolRefAttr ref)) {
            ctx.error(op, "Invalid callee (must be a symbol reference): " + op.attr("callee"));
            return;
        }
        Operation fn = ctx.symbols().lookup(op, ref);
        if (fn == null || !fn.name().equals(calleeOp)) {
            ctx.error(op, "Invalid callee (must name " + what + "): " + ref);
            return;
        }
        Type.FunctionType ft = functionType(fn);
        Type.FunctionType actual = new Type.FunctionType(types(op.operands()), types(op.results()));
        if (ft != null && !ft.equals(actual)) {
            ctx.error(op, "Invalid call type (must match the callee's type " + ft + "): " + actual);
        }
    }

    /**
     * {@code %a, %b : T, U} with optional operands, for return-like ops.
     *
     * @param p the parser, after the op's name
     * @param loc the op's location
     * @param name the op's name
     * @return the new, detached op
     * @throws dev.mgpu.ir.MgpuException if the text is not valid operands and types
     */
    public static Operation returnLike(OpAsmParser p, Location loc, String name) {
        int off = p.offset();
        List<OpAsmParser.OperandRef> refs = p.operandRefs();
        List<Value> vals = List.of();
        if (!refs.isEmpty()) {
            p.expectPunct(':');
            vals = p.resolve(refs, p.typeList(), off);
        }
        return Operation.create(name, loc, vals, List.of(), p.optionalDictionary());
    }

    /**
     * {@code @name [{attrs}] : T}: an op without operands whose one result, of type T, refers to the symbol
     * held by attribute {@code attr} ({@code memref.get_global}, {@code llvm.mlir.addressof}).
     *
     * @param p the parser, after the op's name
     * @param loc the op's location
     * @param name the op's name
     * @param attr the attribute that holds the symbol
     * @param type parses the result type (and checks its kind)
     * @return the new, detached op
     */
    public static Operation symbolOfType(OpAsmParser p, Location loc, String name, String attr,
            java.util.function.Function<OpAsmParser, Type> type) {
        Map<String, Attribute> attrs = new LinkedHashMap<>();
        attrs.put(attr, p.symbolRef());
        attrs.putAll(p.optionalDictionary());
        p.expectPunct(':');
        return Operation.create(name, loc, List.of(), List.of(type.apply(p)), attrs);
    }

    /**
     * Prints what {@link #symbolOfType} parses.
     *
     * @param p the printer
     * @param op the op
     * @param attr the attribute that holds the symbol
     */
    public static void printSymbolOfType(OpAsmPrinter p, Operation op, String attr) {
        p.write(' ').attr(op.attr(attr));
        p.attrDict(op, Set.of(attr));
        p.write(" : ").type(op.result(0).type());
    }

    /**
     * Prints what {@link #returnLike} parses.
     *
     * @param p the printer
     * @param op the return-like op
     */
    public static void printReturnLike(OpAsmPrinter p, Operation op) {
        if (op.operandCount() > 0) {
            p.write(' ').operands(op.operands()).write(" : ").types(types(op.operands()));
        }
        p.attrDict(op, Set.of());
    }

    /**
     * Reports and returns false unless the op has a non-empty string {@code sym_name}.
     *
     * @param op the op
     * @param ctx where errors are reported
     * @return true if the op has a valid {@code sym_name}
     */
    public static boolean verifySymbolName(Operation op, VerifyContext ctx) {
        if (!(op.attr("sym_name") instanceof Attribute.StringAttr s) || s.length() == 0) {
            ctx.error(op, "Invalid " + op.name() + " (must have a non-empty string sym_name): "
                    + (op.attr("sym_name") == null ? "none" : op.attr("sym_name")));
            return false;
        }
        return true;
    }

    /**
     * Checks the operands of a return-like op against the enclosing function's results.
     *
     * @param op the return-like op
     * @param ctx where errors are reported
     * @param fnNames the names of the function ops the op may be directly inside
     */
    public static void verifyReturn(Operation op, VerifyContext ctx, String... fnNames) {
        Operation fn = op.parentOp();
        if (fn == null || !List.of(fnNames).contains(fn.name())) {
            ctx.error(op, "Invalid " + op.name() + " (must be inside " + String.join(" or ", fnNames) + "): "
                    + (fn == null ? "top level" : fn.name()));
            return;
        }
        Type.FunctionType ft = functionType(fn);
        if (ft == null) {
            return;
        }
        List<Type> actual = types(op.operands());
        if (!actual.equals(ft.results())) {
            ctx.error(op, "Invalid " + op.name() + " operands (must match the function's results ("
                    + join(ft.results()) + ")): (" + join(actual) + ")");
        }
    }

    /**
     * Joins items' strings with {@code ", "}.
     *
     * @param items the items
     * @return the joined text, empty for no items
     */
    public static String join(List<?> items) {
        StringBuilder sb = new StringBuilder();
        for (Object o : items) {
            if (sb.length() > 0) {
                sb.append(", ");
            }
            sb.append(o);
        }
        return sb.toString();
    }

    /**
     * Reports and returns false unless {@code op} has {@code operands} operands and {@code results} results;
     * an op's other rules read them by position, so they run only when the counts hold.
     *
     * @param op the op
     * @param ctx where errors are reported
     * @param operands the number of operands the op must have
     * @param results the number of results the op must have
     * @return true if the counts hold
     */
    public static boolean verifyCounts(Operation op, VerifyContext ctx, int operands, int results) {
        if (op.operandCount() != operands || op.resultCount() != results) {
            ctx.error(op, "Invalid " + op.name() + " (must have " + operands + " operand" + (operands == 1 ? "" : "s")
                    + " and " + results + " result" + (results == 1 ? "" : "s") + "): " + op.operandCount()
                    + " and " + op.resultCount());
            return false;
        }
        return true;
    }

    /**
     * Verifies that every operand has the result's type.
     *
     * @param op the op, which has a result
     * @param ctx where errors are reported
     */
    public static void verifySameTypes(Operation op, VerifyContext ctx) {
        Type t = op.result(0).type();
        for (Value v : op.operands()) {
            if (!v.type().equals(t)) {
                ctx.error(op, "Invalid operand types of " + op.name() + " (must all be " + t + "): " + v.type());
                return;
            }
        }
    }

    /**
     * The rules every function op shares: a symbol name, a function type, entry arguments that match it.
     *
     * @param op the function op
     * @param ctx where errors are reported
     */
    public static void verifyFunction(Operation op, VerifyContext ctx) {
        if (!verifySymbolName(op, ctx)) {
            return;
        }
        Type.FunctionType ft = functionType(op);
        if (ft == null) {
            ctx.error(op, "Invalid " + op.name() + " (must have a function_type): "
                    + (op.attr("function_type") == null ? "none" : op.attr("function_type")));
            return;
        }
        if (!op.region(0).isEmpty()) {
            Block entry = op.region(0).entry();
            List<Type> argTypes = types(entry.arguments());
            if (!argTypes.equals(ft.inputs())) {
                ctx.error(op, "Invalid entry block arguments (must match the function type's inputs ("
                        + join(ft.inputs()) + ")): (" + join(argTypes) + ")");
            }
        }
    }
}
