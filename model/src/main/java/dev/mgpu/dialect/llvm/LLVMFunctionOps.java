package dev.mgpu.dialect.llvm;

import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import dev.mgpu.op.FunctionOpView;
import dev.mgpu.op.OpDef;
import dev.mgpu.op.OpView;
import dev.mgpu.op.Syntax;
import dev.mgpu.op.VerifyContext;
import dev.mgpu.text.OpAsmParser;
import dev.mgpu.text.OpAsmPrinter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The llvm dialect's functions and calls: {@code llvm.func}, {@code llvm.return} and {@code llvm.call}. Each
 * op is a nested class with its name, accessors, syntax and rules.
 */
public final class LLVMFunctionOps {
    private LLVMFunctionOps() {
    }

    /** {@code llvm.func [linkage] @name(args) [-> result] [attributes {...}] [{ body }]}. */
    public static final class FuncOp extends FunctionOpView {
        /** The op's name. */
        public static final String NAME = "llvm.func";

        /** {@code unnamed_addr}'s values: the address is significant (0), only locally (1), or not at all (2). */
        public static final int LOCAL_UNNAMED_ADDR = 1;
        /** {@code unnamed_addr}'s value when the address is not significant at all. */
        public static final int UNNAMED_ADDR = 2;

        /** Linkage keywords accepted before a function's name. */
        public static final Set<String> LINKAGES = Set.of("external", "internal", "private", "linkonce",
                "linkonce_odr", "weak", "weak_odr", "available_externally", "extern_weak", "common");

        /**
         * Wraps {@code op}.
         *
         * @param op an {@code llvm.func} op
         * @throws IllegalArgumentException if {@code op} has another name
         */
        public FuncOp(Operation op) {
            super(op, NAME);
        }

        /**
         * Creates a function; with {@code withBody}, an entry block whose arguments match the inputs.
         *
         * @param loc the op's location
         * @param name the function's symbol name
         * @param type the function's type
         * @param withBody whether to add an entry block
         * @return the new, detached op
         */
        public static FuncOp create(Location loc, String name, Type.FunctionType type, boolean withBody) {
            return new FuncOp(create(NAME, loc, name, type, withBody));
        }

        /**
         * The generic form states the type as {@code !llvm.func<...>} and the linkage as
         * {@code #llvm.linkage<...>}, as upstream; the op keeps a function type and a linkage keyword.
         */
        static Map<String, Attribute> toGeneric(Operation op) {
            Map<String, Attribute> attrs = op.attributes();
            Map<String, Attribute> out = new LinkedHashMap<>(attrs);
            if (attrs.get("function_type") instanceof Attribute.TypeAttr t && t.type() instanceof Type.FunctionType f
                    && f.results().size() <= 1) {
                Type result = f.results().isEmpty() ? Type.VOID : f.results().get(0);
                out.put("function_type", new Attribute.TypeAttr(new Type.LLVMFunctionType(result, f.inputs(), false)));
            }
            if (attrs.get("linkage") instanceof Attribute.StringAttr l) {
                out.put("linkage", new LinkageAttr(l.value()));
            }
            return out;
        }

        static Map<String, Attribute> fromGeneric(Map<String, Attribute> attrs) {
            Map<String, Attribute> out = new LinkedHashMap<>(attrs);
            if (attrs.get("function_type") instanceof Attribute.TypeAttr t && t.type() instanceof Type.LLVMFunctionType f
                    && !f.varArg()) {
                List<Type> results = f.result() instanceof Type.LLVMVoidType ? List.of() : List.of(f.result());
                out.put("function_type", new Attribute.TypeAttr(new Type.FunctionType(f.params(), results)));
            }
            if (attrs.get("linkage") instanceof LinkageAttr l) {
                out.put("linkage", Attribute.StringAttr.of(l.linkage()));
            }
            dropDefaults(out);
            return out;
        }

        /**
         * The linkage keyword, {@code external} by default.
         *
         * @return the {@code linkage} attribute's keyword, or {@code external}
         */
        public String linkage() {
            return op.attr("linkage") instanceof Attribute.StringAttr s ? s.value() : "external";
        }

        static OpDef definition() {
            return OpDef.of(NAME).isolatedFromAbove().inherent("sym_name", "function_type", "linkage", "arg_attrs",
                    "res_attrs", "CConv", "unnamed_addr", "visibility_", "section", "alignment", "passthrough",
                    "always_inline", "no_inline", "optimize_none", "garbageCollector", "function_entry_count")
                    .genericForm(FuncOp::toGeneric, FuncOp::fromGeneric)
                    .syntax((p, n, loc) -> Syntax.function(p, loc, NAME, "linkage", LINKAGES,
                            attrs -> parseKeywords(p, attrs), null, true, false),
                            (p, op) -> Syntax.printFunction(p, op, "linkage",
                                    Set.of("unnamed_addr", "visibility_", "CConv"), pr -> printKeywords(pr, op), null))
                    .verifier(FuncOp::verify);
        }

        /** Upstream's order after the linkage: visibility, unnamed_addr, calling convention. */
        private static void parseKeywords(OpAsmParser p, Map<String, Attribute> attrs) {
            if (p.optionalKeyword("hidden")) {
                attrs.put("visibility_", Attribute.IntegerAttr.i64(1));
            } else if (p.optionalKeyword("protected")) {
                attrs.put("visibility_", Attribute.IntegerAttr.i64(2));
            }
            if (p.optionalKeyword("unnamed_addr")) {
                attrs.put("unnamed_addr", Attribute.IntegerAttr.i64(UNNAMED_ADDR));
            } else if (p.optionalKeyword("local_unnamed_addr")) {
                attrs.put("unnamed_addr", Attribute.IntegerAttr.i64(LOCAL_UNNAMED_ADDR));
            }
            String k = p.peekKeyword();
            if (k != null && CConvAttr.CONVENTIONS.containsKey(k)) {
                p.keyword();
                if (!k.equals("ccc")) {
                    attrs.put("CConv", new CConvAttr(k));
                }
            }
        }

        private static void printKeywords(OpAsmPrinter p, Operation op) {
            long v = op.attr("visibility_") instanceof Attribute.IntegerAttr i ? i.value() : 0;
            p.write(v == 1 ? " hidden" : v == 2 ? " protected" : "");
            long u = op.attr("unnamed_addr") instanceof Attribute.IntegerAttr i ? i.value() : 0;
            p.write(u == UNNAMED_ADDR ? " unnamed_addr" : u == LOCAL_UNNAMED_ADDR ? " local_unnamed_addr" : "");
            if (op.attr("CConv") instanceof CConvAttr c && !c.equals(CConvAttr.C)) {
                p.write(' ').write(c.cconv());
            }
        }

        /** The properties translation gives the LLVM function; any other undotted attribute is an error. */
        static final Set<String> TRANSLATED = Set.of("sym_name", "function_type", "linkage", "arg_attrs", "res_attrs",
                "CConv", "unnamed_addr", "visibility_", "section", "alignment", "passthrough", "always_inline",
                "no_inline", "optimize_none", "garbageCollector", "function_entry_count");

        /** The argument and result attributes translation gives LLVM; those with a value take an integer. */
        static final Set<String> PARAMETER_FLAGS = Set.of("noalias", "nonnull", "noundef", "nocapture", "readonly",
                "readnone", "writeonly", "zeroext", "signext", "inreg", "returned", "nofree");
        static final Set<String> PARAMETER_INTS = Set.of("align", "dereferenceable", "dereferenceable_or_null");

        static void verify(Operation op, VerifyContext ctx) {
            Syntax.verifyFunction(op, ctx);
            for (Map.Entry<String, Attribute> e : op.attributes().entrySet()) {
                String k = e.getKey();
                Attribute v = e.getValue();
                if (!TRANSLATED.contains(k)) {
                    if (k.indexOf('.') < 0) {
                        ctx.error(op, "Invalid attribute of llvm.func (must be one that translation gives LLVM: "
                                + String.join(", ", new java.util.TreeSet<>(TRANSLATED)) + "): " + k);
                    }
                    continue;
                }
                boolean ok = accepts(k, v);
                if (!ok) {
                    ctx.error(op, "Invalid " + k + " of llvm.func (must be " + RULES.get(k) + "): " + v);
                }
            }
            // LLVM requires default visibility of a local symbol: its IR parser (llc, clang, llvm-as) refuses
            // `internal hidden`, though its in-memory verifier lets it through (so does upstream's translation).
            if (op.attr("visibility_") instanceof Attribute.IntegerAttr vis && vis.value() != 0
                    && op.attr("linkage") instanceof Attribute.StringAttr l
                    && (l.value().equals("internal") || l.value().equals("private"))) {
                ctx.error(op, "Invalid visibility of an llvm.func with " + l.value() + " linkage (must be default,"
                        + " as LLVM requires of local symbols): " + (vis.value() == 1 ? "hidden" : "protected"));
            }
            for (String key : List.of("arg_attrs", "res_attrs")) {
                if (op.attr(key) instanceof Attribute.ArrayAttr all) {
                    for (Attribute d : all.elements()) {
                        verifyParameterAttributes(op, ctx, (Attribute.DictionaryAttr) d);
                    }
                }
            }
        }

        private static final Map<String, String> RULES = Map.ofEntries(Map.entry("section", "a string"),
                Map.entry("alignment", "a power of two"), Map.entry("CConv", "a #llvm.cconv"),
                Map.entry("unnamed_addr", "0, 1 or 2"), Map.entry("visibility_", "0 (default), 1 (hidden) or 2"
                        + " (protected)"), Map.entry("passthrough", "an array of names and [name, value] pairs"),
                Map.entry("always_inline", "a unit attribute"), Map.entry("no_inline", "a unit attribute"),
                Map.entry("optimize_none", "a unit attribute"), Map.entry("garbageCollector", "a string"),
                Map.entry("function_entry_count", "a count >= 0"), Map.entry("arg_attrs", "an array of dictionaries"),
                Map.entry("res_attrs", "an array of one dictionary"));

        private static boolean accepts(String k, Attribute v) {
            switch (k) {
                case "section":
                case "garbageCollector":
                    return v instanceof Attribute.StringAttr;
                case "alignment":
                    return v instanceof Attribute.IntegerAttr a && a.value() > 0 && Long.bitCount(a.value()) == 1
                            && a.value() <= (1L << 32);
                case "CConv":
                    return v instanceof CConvAttr;
                case "unnamed_addr":
                case "visibility_":
                    return v instanceof Attribute.IntegerAttr i && i.value() >= 0 && i.value() <= 2;
                case "always_inline":
                case "no_inline":
                case "optimize_none":
                    return v instanceof Attribute.UnitAttr;
                case "function_entry_count":
                    return v instanceof Attribute.IntegerAttr c && c.value() >= 0;
                case "passthrough":
                    if (!(v instanceof Attribute.ArrayAttr arr)) {
                        return false;
                    }
                    for (Attribute a : arr.elements()) {
                        boolean pair = a instanceof Attribute.ArrayAttr kv && kv.size() == 2
                                && kv.get(0) instanceof Attribute.StringAttr && kv.get(1) instanceof Attribute.StringAttr;
                        if (!(a instanceof Attribute.StringAttr) && !pair) {
                            return false;
                        }
                    }
                    return true;
                case "arg_attrs":
                case "res_attrs":
                    return v instanceof Attribute.ArrayAttr arr
                            && arr.elements().stream().allMatch(d -> d instanceof Attribute.DictionaryAttr);
                default:
                    return true;
            }
        }

        private static void verifyParameterAttributes(Operation op, VerifyContext ctx, Attribute.DictionaryAttr d) {
            for (Map.Entry<String, Attribute> e : d.entries().entrySet()) {
                String k = e.getKey();
                String name = k.startsWith("llvm.") ? k.substring(5) : "";
                boolean flag = PARAMETER_FLAGS.contains(name) && e.getValue() instanceof Attribute.UnitAttr;
                boolean integer = PARAMETER_INTS.contains(name) && e.getValue() instanceof Attribute.IntegerAttr;
                if (!flag && !integer) {
                    ctx.error(op, "Invalid argument attribute of llvm.func (must be llvm." + String.join(", llvm.",
                            new java.util.TreeSet<>(PARAMETER_FLAGS)) + " as units, or llvm."
                            + String.join(", llvm.", new java.util.TreeSet<>(PARAMETER_INTS)) + " with an integer): "
                            + k + (e.getValue() instanceof Attribute.UnitAttr ? "" : " = " + e.getValue()));
                }
            }
        }
    }

    /** {@code llvm.return [%v : T]}. */
    public static final class ReturnOp extends OpView {
        /** The op's name. */
        public static final String NAME = "llvm.return";

        /**
         * Wraps {@code op}.
         *
         * @param op an {@code llvm.return} op
         * @throws IllegalArgumentException if {@code op} has another name
         */
        public ReturnOp(Operation op) {
            super(op, NAME);
        }

        /**
         * Creates a return of {@code values}.
         *
         * @param loc the op's location
         * @param values the values returned
         * @return the new, detached op
         */
        public static ReturnOp create(Location loc, List<Value> values) {
            return new ReturnOp(Operation.create(NAME, loc, values, List.of(), Map.of()));
        }

        static OpDef definition() {
            return OpDef.of(NAME).terminator()
                    .syntax((p, n, loc) -> Syntax.returnLike(p, loc, NAME), Syntax::printReturnLike)
                    // Upstream takes it in a func.func too, which it then ends as func.return does.
                    .verifier((op, ctx) -> Syntax.verifyReturn(op, ctx, FuncOp.NAME, "func.func"));
        }
    }

    /** {@code llvm.call @f(%args) : (T) -> R}. */
    public static final class CallOp extends OpView {
        /** The op's name. */
        public static final String NAME = "llvm.call";

        /**
         * Wraps {@code op}.
         *
         * @param op an {@code llvm.call} op
         * @throws IllegalArgumentException if {@code op} has another name
         */
        public CallOp(Operation op) {
            super(op, NAME);
        }

        /**
         * Creates a call of {@code @callee}.
         *
         * @param loc the op's location
         * @param callee the called function's symbol name
         * @param args the arguments
         * @param results the result types
         * @return the new, detached op
         */
        public static CallOp create(Location loc, String callee, List<Value> args, List<Type> results) {
            return new CallOp(Operation.create(NAME, loc, args, results,
                    Map.of("callee", Attribute.SymbolRefAttr.of(callee))));
        }

        /**
         * The generic form states the operand segments (call operands, operand bundles) and the bundle
         * sizes, as upstream; the op has no bundles and keeps neither.
         */
        static Map<String, Attribute> toGeneric(Operation op) {
            Map<String, Attribute> out = new LinkedHashMap<>(op.attributes());
            out.put("operandSegmentSizes", Attribute.DenseArrayAttr.i32(op.operandCount(), 0));
            out.put("op_bundle_sizes", new Attribute.DenseArrayAttr(Type.I32, new long[0]));
            return out;
        }

        static Map<String, Attribute> fromGeneric(Map<String, Attribute> attrs) {
            Map<String, Attribute> out = new LinkedHashMap<>(attrs);
            if (out.get("op_bundle_sizes") instanceof Attribute.DenseArrayAttr b && b.size() == 0
                    && out.get("operandSegmentSizes") instanceof Attribute.DenseArrayAttr seg && seg.size() == 2
                    && seg.get(1) == 0) {
                out.remove("op_bundle_sizes");
                out.remove("operandSegmentSizes");
            }
            dropDefaults(out);
            return out;
        }

        static OpDef definition() {
            return OpDef.of(NAME).inherent("callee", "operandSegmentSizes", "op_bundle_sizes")
                    .genericForm(CallOp::toGeneric, CallOp::fromGeneric)
                    .syntax((p, n, loc) -> Syntax.parseCall(p, loc, NAME), Syntax::printCall)
                    .verifier((op, ctx) -> Syntax.verifyCall(op, ctx, FuncOp.NAME, "an llvm.func"));
        }
    }

    /**
     * Leaves out the properties upstream's generic form states at their default values (C calling
     * convention, default visibility, significant address, no tail-call or fast-math marker), so that
     * what remains is what translation must honour.
     */
    private static void dropDefaults(Map<String, Attribute> attrs) {
        attrs.remove("CConv", CConvAttr.C);
        attrs.remove("visibility_", Attribute.IntegerAttr.i64(0));
        attrs.remove("unnamed_addr", Attribute.IntegerAttr.i64(0));
        Attribute tail = attrs.get("TailCallKind");
        if (tail != null && tail.toString().equals("#llvm.tailcallkind<none>")) {
            attrs.remove("TailCallKind");
        }
        Attribute fm = attrs.get("fastmathFlags");
        if (fm != null && fm.toString().equals("#llvm.fastmath<none>")) {
            attrs.remove("fastmathFlags");
        }
    }
}
