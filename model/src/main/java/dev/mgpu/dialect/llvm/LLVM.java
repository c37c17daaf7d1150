package dev.mgpu.dialect.llvm;

import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import dev.mgpu.op.ArithmeticSyntax;
import dev.mgpu.op.AttrDef;
import dev.mgpu.op.BranchSyntax;
import dev.mgpu.op.ConstantRangeAttr;
import dev.mgpu.op.FlagsAttr;
import dev.mgpu.op.FunctionOpView;
import dev.mgpu.op.OpDef;
import dev.mgpu.op.OpView;
import dev.mgpu.op.Syntax;
import dev.mgpu.op.TypeDef;
import dev.mgpu.op.VerifyContext;
import dev.mgpu.text.AsmParser;
import dev.mgpu.text.OpAsmParser;
import dev.mgpu.text.OpAsmPrinter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The host-code subset of the llvm dialect. Each op (or family of ops that share one syntax and rule) is
 * a nested class with its name, accessors, syntax and rules; {@code llvm.br} and {@code llvm.cond_br}
 * are the cf ops under llvm names.
 */
public final class LLVM {
    private LLVM() {
    }

    /** The name of {@code llvm.br}, {@code cf.br} under an llvm name, defined by {@link BranchSyntax#branch}. */
    public static final String BR = "llvm.br";
    /**
     * The name of {@code llvm.cond_br}, {@code cf.cond_br} under an llvm name, defined by
     * {@link BranchSyntax#conditionalBranch}.
     */
    public static final String COND_BR = "llvm.cond_br";

    /**
     * Every op of the dialect.
     *
     * @return the op definitions
     */
    public static List<OpDef> ops() {
        List<OpDef> defs = new ArrayList<>();
        defs.add(FuncOp.definition());
        defs.add(ReturnOp.definition());
        defs.add(CallOp.definition());
        defs.add(ConstantOp.definition());
        defs.add(ZeroOp.definition());
        defs.add(BranchSyntax.branch(BR, LLVM::isCompatible));
        defs.add(BranchSyntax.conditionalBranch(COND_BR, LLVM::isCompatible));
        defs.add(ICmpOp.definition());
        defs.addAll(BinaryOp.definitions());
        defs.addAll(CastOp.definitions());
        defs.addAll(LLVMKernelOps.definitions());
        defs.add(AllocaOp.definition());
        defs.add(LoadOp.definition());
        defs.add(StoreOp.definition());
        defs.add(GEPOp.definition());
        return defs;
    }

    /**
     * The llvm types: {@code !llvm.void}, {@code !llvm.ptr[<N>]}, {@code !llvm.array<N x T>},
     * {@code !llvm.struct<[packed] (...)>} and {@code !llvm.func<R (A, ...)>}. Inside them, llvm types
     * may drop their {@code !llvm.} prefix ({@code ptr}, {@code void}), as upstream prints them.
     *
     * @return the type definitions
     */
    public static List<TypeDef> types() {
        return List.of(new TypeDef("llvm.void", (p, off) -> Type.VOID),
                new TypeDef("llvm.ptr", (p, off) -> pointerBody(p)),
                new TypeDef("llvm.array", (p, off) -> arrayBody(p)),
                new TypeDef("llvm.struct", (p, off) -> structBody(p)),
                new TypeDef("llvm.func", (p, off) -> functionBody(p)));
    }

    /** A type nested in an llvm type: any type, or an llvm type without its prefix. */
    private static Type nestedType(AsmParser p) {
        if (p.optionalKeyword("ptr")) {
            return pointerBody(p);
        }
        if (p.optionalKeyword("void")) {
            return Type.VOID;
        }
        if (p.optionalKeyword("array")) {
            return arrayBody(p);
        }
        if (p.optionalKeyword("struct")) {
            return structBody(p);
        }
        if (p.optionalKeyword("func")) {
            return functionBody(p);
        }
        return p.type();
    }

    private static Type pointerBody(AsmParser p) {
        if (p.optionalPunct('<')) {
            long as = p.integer();
            p.expectPunct('>');
            return new Type.LLVMPointerType((int) as);
        }
        return Type.PTR;
    }

    private static Type arrayBody(AsmParser p) {
        p.expectPunct('<');
        long n = p.integer();
        p.expectKeyword("x");
        Type t = nestedType(p);
        p.expectPunct('>');
        return new Type.LLVMArrayType(n, t);
    }

    private static Type structBody(AsmParser p) {
        p.expectPunct('<');
        boolean packed = p.optionalKeyword("packed");
        p.expectPunct('(');
        List<Type> body = new ArrayList<>();
        if (!p.optionalPunct(')')) {
            do {
                body.add(nestedType(p));
            } while (p.optionalPunct(','));
            p.expectPunct(')');
        }
        p.expectPunct('>');
        return new Type.LLVMStructType(body, packed);
    }

    private static Type functionBody(AsmParser p) {
        p.expectPunct('<');
        Type result = nestedType(p);
        p.expectPunct('(');
        List<Type> params = new ArrayList<>();
        boolean varArg = false;
        if (!p.optionalPunct(')')) {
            do {
                if (p.optionalPunct('.')) {
                    p.expectPunct('.');
                    p.expectPunct('.');
                    varArg = true;
                    break;
                }
                params.add(nestedType(p));
            } while (p.optionalPunct(','));
            p.expectPunct(')');
        }
        p.expectPunct('>');
        return new Type.LLVMFunctionType(result, params, varArg);
    }

    /**
     * The llvm attributes: linkage, calling convention, fast-math and tail-call flags, and debug info.
     *
     * @return the attribute definitions
     */
    public static List<AttrDef> attributes() {
        List<AttrDef> defs = new java.util.ArrayList<>(List.of(new AttrDef(LinkageAttr.NAME, LinkageAttr::parse),
                new AttrDef(CConvAttr.NAME, CConvAttr::parse),
                new AttrDef("llvm.fastmath", (p, off) -> FlagsAttr.parse(p, "llvm.fastmath",
                        ArithmeticSyntax.FASTMATH_FLAGS)),
                new AttrDef("llvm.tailcallkind", (p, off) -> FlagsAttr.parse(p, "llvm.tailcallkind",
                        List.of("tail", "musttail", "notail")))));
        defs.addAll(DebugInfoAttr.definitions());
        defs.add(new AttrDef(ConstantRangeAttr.NAME, (p, off) -> ConstantRangeAttr.parseBody(p)));
        return defs;
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
                    .verifier((op, ctx) -> Syntax.verifyReturn(op, ctx, FuncOp.NAME));
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

    /** {@code llvm.mlir.constant(value) : T}: the result type rules over the value's written type. */
    public static final class ConstantOp extends OpView {
        /** The op's name. */
        public static final String NAME = "llvm.mlir.constant";

        /**
         * Wraps {@code op}.
         *
         * @param op an {@code llvm.mlir.constant} op
         * @throws IllegalArgumentException if {@code op} has another name
         */
        public ConstantOp(Operation op) {
            super(op, NAME);
        }

        /**
         * Creates an integer constant.
         *
         * @param loc the op's location
         * @param value the value
         * @param type the integer type of the value and result
         * @return the new, detached op
         */
        public static ConstantOp create(Location loc, long value, Type.IntegerType type) {
            return new ConstantOp(Operation.create(NAME, loc, List.of(), List.of(type),
                    Map.of("value", new Attribute.IntegerAttr(value, type))));
        }

        /**
         * The value, an integer or float attribute of the result type.
         *
         * @return the {@code value} attribute
         */
        public Attribute value() {
            return op.attr("value");
        }

        static OpDef definition() {
            return OpDef.of(NAME).inherent("value").syntax(ConstantOp::parse, ConstantOp::print)
                    .verifier(ConstantOp::verify);
        }

        static Operation parse(OpAsmParser p, int n, Location loc) {
            p.expectPunct('(');
            Attribute v = p.attribute();
            p.expectPunct(')');
            Map<String, Attribute> attrs = new LinkedHashMap<>(p.optionalDictionary());
            p.expectPunct(':');
            Type t = p.type();
            // The value keeps the type it was written with (often index), as upstream prints it; translation
            // gives it the result type.
            attrs.put("value", v);
            return Operation.create(NAME, loc, List.of(), List.of(t), attrs);
        }

        static void print(OpAsmPrinter p, Operation op) {
            p.write('(').attr(op.attr("value")).write(')');
            p.attrDict(op, Set.of("value"));
            p.write(" : ").type(op.result(0).type());
        }

        static void verify(Operation op, VerifyContext ctx) {
            Attribute v = op.attr("value");
            Type t = op.result(0).type();
            if (!(v instanceof Attribute.IntegerAttr && t instanceof Type.IntegerType)
                    && !(v instanceof Attribute.FloatAttr && t instanceof Type.FloatType)) {
                ctx.error(op, "Invalid llvm.mlir.constant (must be an integer or float value of an integer or float"
                        + " type): " + v + " as " + t);
            } else if (v instanceof Attribute.FloatAttr f && !f.type().equals(t)) {
                ctx.error(op, "Invalid llvm.mlir.constant (must have a float value of its type " + t + "): " + v);
            }
        }
    }

    /** {@code llvm.mlir.zero : T}. */
    public static final class ZeroOp extends OpView {
        /** The op's name. */
        public static final String NAME = "llvm.mlir.zero";

        /**
         * Wraps {@code op}.
         *
         * @param op an {@code llvm.mlir.zero} op
         * @throws IllegalArgumentException if {@code op} has another name
         */
        public ZeroOp(Operation op) {
            super(op, NAME);
        }

        /**
         * Creates the zero (null) value of {@code type}.
         *
         * @param loc the op's location
         * @param type the result type
         * @return the new, detached op
         */
        public static ZeroOp create(Location loc, Type type) {
            return new ZeroOp(Operation.create(NAME, loc, List.of(), List.of(type), Map.of()));
        }

        static OpDef definition() {
            return OpDef.of(NAME).syntax((p, n, loc) -> {
                Map<String, Attribute> attrs = p.optionalDictionary();
                p.expectPunct(':');
                return Operation.create(NAME, loc, List.of(), List.of(p.type()), attrs);
            }, (p, op) -> {
                p.attrDict(op, Set.of());
                p.write(" : ").type(op.result(0).type());
            });
        }
    }

    /** {@code llvm.icmp "pred" %a, %b : T}, with the predicates of {@link ArithmeticSyntax#INTEGER_PREDICATES}. */
    public static final class ICmpOp extends OpView {
        /** The op's name. */
        public static final String NAME = "llvm.icmp";

        /**
         * Wraps {@code op}.
         *
         * @param op an {@code llvm.icmp} op
         * @throws IllegalArgumentException if {@code op} has another name
         */
        public ICmpOp(Operation op) {
            super(op, NAME);
        }

        /**
         * Creates {@code llvm.icmp "predicate" a, b}.
         *
         * @param loc the op's location
         * @param predicate the predicate's name, one of {@link ArithmeticSyntax#INTEGER_PREDICATES}
         * @param a the left operand
         * @param b the right operand
         * @return the new, detached op, whose result is an {@code i1}
         * @throws IllegalArgumentException if {@code predicate} is not one of the predicates
         */
        public static ICmpOp create(Location loc, String predicate, Value a, Value b) {
            int p = ArithmeticSyntax.INTEGER_PREDICATES.indexOf(predicate);
            if (p < 0) {
                throw new IllegalArgumentException("Invalid predicate (must be one of "
                        + ArithmeticSyntax.INTEGER_PREDICATES
                        + "): " + predicate);
            }
            return new ICmpOp(Operation.create(NAME, loc, List.of(a, b), List.of(Type.I1),
                    Map.of("predicate", Attribute.IntegerAttr.i64(p))));
        }

        static OpDef definition() {
            return OpDef.of(NAME).inherent("predicate").syntax(ICmpOp::parse, ICmpOp::print).verifier(ICmpOp::verify);
        }

        static Operation parse(OpAsmParser p, int results, Location loc) {
            int off = p.offset();
            int idx = ArithmeticSyntax.predicateNumber(p, off, p.string());
            List<OpAsmParser.OperandRef> refs = p.operandRefs();
            if (refs.size() != 2) {
                throw p.errorAt(off, "Invalid operands of llvm.icmp (must be two): " + refs.size());
            }
            Map<String, Attribute> attrs = new LinkedHashMap<>(p.optionalDictionary());
            p.expectPunct(':');
            Type t = p.type();
            attrs.put("predicate", Attribute.IntegerAttr.i64(idx));
            return Operation.create(NAME, loc, p.resolveAll(refs, t), List.of(Type.I1), attrs);
        }

        static void print(OpAsmPrinter p, Operation op) {
            p.write(" \"").write(ArithmeticSyntax.predicateName(op)).write("\" ").operands(op.operands());
            p.attrDict(op, Set.of("predicate"));
            p.write(" : ").type(op.operand(0).type());
        }

        static void verify(Operation op, VerifyContext ctx) {
            if (!Syntax.verifyCounts(op, ctx, 2, 1)) {
                return;
            }
            ArithmeticSyntax.verifyPredicate(op, ctx);
            Type t = op.operand(0).type();
            if (!(t instanceof Type.IntegerType || t instanceof Type.LLVMPointerType)) {
                ctx.error(op, "Invalid operand of llvm.icmp (must be an integer or pointer): " + t);
            } else if (!op.operand(1).type().equals(t)) {
                ctx.error(op, "Invalid operand types of llvm.icmp (must both be " + t + "): " + op.operand(1).type());
            }
        }
    }

    /** {@code %r = llvm.<kind> %a, %b : T}, with the syntax of {@link ArithmeticSyntax#parseBinary}. */
    public static final class BinaryOp {
        /** The integer kinds: {@code llvm.add}, ... */
        public static final List<String> INTEGER_KINDS = List.of("add", "sub", "mul", "udiv", "sdiv", "urem", "srem",
                "and", "or", "xor", "shl", "lshr", "ashr");
        /** The float kinds: {@code llvm.fadd}, ... */
        public static final List<String> FLOAT_KINDS = List.of("fadd", "fsub", "fmul", "fdiv");

        private BinaryOp() {
        }

        /**
         * The op name of {@code kind}, which must be one of the kinds.
         *
         * @param kind the name after {@code llvm.}
         * @return {@code llvm.<kind>}
         * @throws IllegalArgumentException if {@code kind} is not one of the kinds
         */
        public static String nameOf(String kind) {
            if (!INTEGER_KINDS.contains(kind) && !FLOAT_KINDS.contains(kind)) {
                throw new IllegalArgumentException("Invalid llvm binary op (must be one of " + INTEGER_KINDS + " or "
                        + FLOAT_KINDS + "): " + kind);
            }
            return "llvm." + kind;
        }

        /**
         * Creates {@code llvm.<kind> a, b}.
         *
         * @param loc the op's location
         * @param kind the name after {@code llvm.}
         * @param a the left operand
         * @param b the right operand, of the left operand's type
         * @return the new, detached op, whose result has the operands' type
         * @throws IllegalArgumentException if {@code kind} is not one of the kinds
         */
        public static Operation create(Location loc, String kind, Value a, Value b) {
            return Operation.create(nameOf(kind), loc, List.of(a, b), List.of(a.type()), Map.of());
        }

        /** The kinds that may promise no wrap, {@code overflow<nsw, nuw>}, held as bits (nsw 1, nuw 2) as upstream. */
        public static final List<String> OVERFLOW_KINDS = List.of("add", "sub", "mul", "shl");
        /** The property holding the overflow bits. */
        public static final String OVERFLOW = "overflowFlags";
        /** The property holding {@code #llvm.fastmath<...>}. */
        public static final String FASTMATH = "fastmathFlags";

        static List<OpDef> definitions() {
            List<OpDef> defs = new ArrayList<>();
            for (String k : INTEGER_KINDS) {
                String name = "llvm." + k;
                OpDef d = OpDef.of(name).syntax((p, n, loc) -> parse(p, loc, name), BinaryOp::print)
                        .verifier(BinaryOp::verifyInteger);
                defs.add(OVERFLOW_KINDS.contains(k) ? d.inherent(OVERFLOW) : d);
            }
            for (String k : FLOAT_KINDS) {
                String name = "llvm." + k;
                defs.add(OpDef.of(name).inherent(FASTMATH).syntax((p, n, loc) -> ArithmeticSyntax.parseBinary(p, loc,
                        name), ArithmeticSyntax::printBinary).verifier(ArithmeticSyntax::verifyFloatBinary));
            }
            return defs;
        }

        static Operation parse(OpAsmParser p, Location loc, String name) {
            int off = p.offset();
            List<OpAsmParser.OperandRef> refs = p.operandRefs();
            if (refs.size() != 2) {
                throw p.errorAt(off, "Invalid operands of " + name + " (must be two): " + refs.size());
            }
            Map<String, Attribute> attrs = new LinkedHashMap<>();
            if (p.optionalKeyword("overflow")) {
                FlagsAttr f = FlagsAttr.parse(p, "llvm.overflow", ArithmeticSyntax.OVERFLOW_FLAGS);
                attrs.put(OVERFLOW, new Attribute.IntegerAttr((f.has("nsw") ? 1 : 0) | (f.has("nuw") ? 2 : 0), Type.I32));
            }
            attrs.putAll(p.optionalDictionary());
            p.expectPunct(':');
            Type t = p.type();
            return Operation.create(name, loc, p.resolveAll(refs, t), List.of(t), attrs);
        }

        static void print(OpAsmPrinter p, Operation op) {
            p.write(' ').operands(op.operands());
            long bits = op.attr(OVERFLOW) instanceof Attribute.IntegerAttr i ? i.value() : 0;
            if (bits != 0) {
                p.write(" overflow<").write(bits == 1 ? "nsw" : bits == 2 ? "nuw" : "nsw, nuw").write('>');
            }
            p.attrDict(op, Set.of(OVERFLOW));
            p.write(" : ").type(op.result(0).type());
        }

        static void verifyInteger(Operation op, VerifyContext ctx) {
            if (!Syntax.verifyCounts(op, ctx, 2, 1)) {
                return;
            }
            if (!(op.operand(0).type() instanceof Type.IntegerType)) {
                ctx.error(op, "Invalid operand of " + op.name() + " (must be an integer): " + op.operand(0).type());
            } else {
                Syntax.verifySameTypes(op, ctx);
            }
            Attribute f = op.attr(OVERFLOW);
            if (f != null && !(f instanceof Attribute.IntegerAttr i && i.value() >= 0 && i.value() <= 3
                    && OVERFLOW_KINDS.contains(op.name().substring(5)))) {
                ctx.error(op, "Invalid overflowFlags of " + op.name() + " (must be 0 to 3 on add, sub, mul or shl): " + f);
            }
        }
    }

    /** {@code %r = llvm.<kind> %a : T to U}, with the syntax of {@link ArithmeticSyntax#parseCast}. */
    public static final class CastOp {
        /** The cast kinds: {@code llvm.sext}, ... */
        public static final List<String> KINDS = List.of("sext", "zext", "trunc", "ptrtoint", "inttoptr", "bitcast",
                "sitofp", "uitofp", "fptosi", "fptoui", "fpext", "fptrunc", "addrspacecast");

        private CastOp() {
        }

        /**
         * The op name of {@code kind}, which must be one of {@link #KINDS}.
         *
         * @param kind the name after {@code llvm.}
         * @return {@code llvm.<kind>}
         * @throws IllegalArgumentException if {@code kind} is not one of {@link #KINDS}
         */
        public static String nameOf(String kind) {
            if (!KINDS.contains(kind)) {
                throw new IllegalArgumentException("Invalid llvm cast (must be one of " + KINDS + "): " + kind);
            }
            return "llvm." + kind;
        }

        static List<OpDef> definitions() {
            List<OpDef> defs = new ArrayList<>();
            for (String k : KINDS) {
                String name = "llvm." + k;
                defs.add(OpDef.of(name).syntax((p, n, loc) -> ArithmeticSyntax.parseCast(p, loc, name),
                        ArithmeticSyntax::printCast).verifier(CastOp::verify));
            }
            return defs;
        }

        private static int intWidth(Type t) {
            return t instanceof Type.IntegerType i ? i.width() : -1;
        }

        static void verify(Operation op, VerifyContext ctx) {
            Type from = op.operand(0).type();
            Type to = op.result(0).type();
            String k = op.name().substring("llvm.".length());
            int fw = intWidth(from);
            int tw = intWidth(to);
            boolean ok;
            switch (k) {
                case "sext":
                case "zext":
                    ok = fw > 0 && tw > fw;
                    break;
                case "trunc":
                    ok = fw > 0 && tw > 0 && tw < fw;
                    break;
                case "ptrtoint":
                    ok = from instanceof Type.LLVMPointerType && tw > 0;
                    break;
                case "inttoptr":
                    ok = fw > 0 && to instanceof Type.LLVMPointerType;
                    break;
                case "sitofp":
                case "uitofp":
                    ok = fw > 0 && to instanceof Type.FloatType;
                    break;
                case "fptosi":
                case "fptoui":
                    ok = from instanceof Type.FloatType && tw > 0;
                    break;
                case "fpext":
                    ok = from instanceof Type.FloatType a && to instanceof Type.FloatType b && b.width() > a.width();
                    break;
                case "fptrunc":
                    ok = from instanceof Type.FloatType a && to instanceof Type.FloatType b && b.width() < a.width();
                    break;
                case "addrspacecast":
                    ok = from instanceof Type.LLVMPointerType a && to instanceof Type.LLVMPointerType b
                            && a.addressSpace() != b.addressSpace();
                    break;
                default:
                    ok = (fw > 0 && fw == tw)
                            || (from instanceof Type.FloatType a && to instanceof Type.FloatType b && a.width() == b.width())
                            || (from instanceof Type.FloatType f && f.width() == tw)
                            || (to instanceof Type.FloatType f2 && f2.width() == fw)
                            || (from instanceof Type.LLVMPointerType && to instanceof Type.LLVMPointerType);
                    break;
            }
            if (!ok) {
                ctx.error(op, "Invalid " + op.name() + " types (must be a valid " + k + " cast): " + from + " to " + to);
            }
        }
    }

    /** {@code %p = llvm.alloca %n x T : (i64) -> !llvm.ptr}. */
    public static final class AllocaOp extends OpView {
        /** The op's name. */
        public static final String NAME = "llvm.alloca";

        /**
         * Wraps {@code op}.
         *
         * @param op an {@code llvm.alloca} op
         * @throws IllegalArgumentException if {@code op} has another name
         */
        public AllocaOp(Operation op) {
            super(op, NAME);
        }

        /**
         * Creates an allocation of {@code count} elements; {@code alignment} 0 leaves it to LLVM.
         *
         * @param loc the op's location
         * @param count the number of elements, an integer
         * @param element the element type
         * @param alignment the alignment in bytes, or 0
         * @return the new, detached op, whose result is a pointer
         */
        public static AllocaOp create(Location loc, Value count, Type element, int alignment) {
            Map<String, Attribute> attrs = new LinkedHashMap<>();
            attrs.put("elem_type", new Attribute.TypeAttr(element));
            if (alignment > 0) {
                attrs.put("alignment", Attribute.IntegerAttr.i64(alignment));
            }
            return new AllocaOp(Operation.create(NAME, loc, List.of(count), List.of(Type.PTR), attrs));
        }

        /**
         * The type of each element allocated.
         *
         * @return the {@code elem_type} attribute's type
         */
        public Type elementType() {
            return ((Attribute.TypeAttr) op.attr("elem_type")).type();
        }

        static OpDef definition() {
            return OpDef.of(NAME).inherent("elem_type", "alignment").syntax(AllocaOp::parse, AllocaOp::print)
                    .verifier((op, ctx) -> {
                        if (!(op.operand(0).type() instanceof Type.IntegerType)) {
                            ctx.error(op, "Invalid llvm.alloca size (must be an integer): " + op.operand(0).type());
                        }
                        expectPointer(op, ctx, "llvm.alloca result", op.result(0).type());
                        expectMemoryType(op, ctx, "llvm.alloca element type",
                                ((Attribute.TypeAttr) op.attr("elem_type")).type());
                    });
        }

        static Operation parse(OpAsmParser p, int n, Location loc) {
            OpAsmParser.OperandRef size = p.operandRef();
            p.expectKeyword("x");
            Type elem = p.type();
            Map<String, Attribute> attrs = new LinkedHashMap<>(p.optionalDictionary());
            p.expectPunct(':');
            Type.FunctionType ft = p.functionType();
            if (ft.inputs().size() != 1 || ft.results().size() != 1) {
                throw p.error("Invalid llvm.alloca type (must be (size type) -> pointer): " + ft);
            }
            attrs.put("elem_type", new Attribute.TypeAttr(elem));
            return Operation.create(NAME, loc, List.of(p.resolve(size, ft.inputs().get(0))), ft.results(), attrs);
        }

        static void print(OpAsmPrinter p, Operation op) {
            p.write(' ').operand(op.operand(0)).write(" x ").type(((Attribute.TypeAttr) op.attr("elem_type")).type());
            p.attrDict(op, Set.of("elem_type"));
            p.write(" : ").type(new Type.FunctionType(List.of(op.operand(0).type()), List.of(op.result(0).type())));
        }
    }

    /** Atomic orderings, by the numbers LLVM gives them (3, consume, has no keyword). */
    public static final List<String> ORDERINGS = List.of("not_atomic", "unordered", "monotonic", "", "acquire",
            "release", "acq_rel", "seq_cst");

    /** {@code [atomic <ordering>]} after a load's or store's address. */
    private static void parseOrdering(OpAsmParser p, Map<String, Attribute> attrs) {
        if (!p.optionalKeyword("atomic")) {
            return;
        }
        int off = p.offset();
        String k = p.keyword();
        int n = ORDERINGS.indexOf(k);
        if (n <= 0) {
            throw p.errorAt(off, "Invalid atomic ordering (must be one of unordered, monotonic, acquire, release,"
                    + " acq_rel, seq_cst): " + k);
        }
        attrs.put("ordering", Attribute.IntegerAttr.i64(n));
    }

    private static void printOrdering(OpAsmPrinter p, Operation op) {
        if (op.attr("ordering") instanceof Attribute.IntegerAttr o && o.value() > 0 && o.value() < ORDERINGS.size()) {
            p.write(" atomic ").write(ORDERINGS.get((int) o.value()));
        }
    }

    /** The attributes a load or store may carry besides {@code alignment}, {@code volatile_} and {@code ordering}. */
    private static void verifyMemoryAttributes(Operation op, VerifyContext ctx, Set<String> allowed) {
        for (Map.Entry<String, Attribute> e : op.attributes().entrySet()) {
            String k = e.getKey();
            if (k.indexOf('.') < 0 && !allowed.contains(k)) {
                ctx.error(op, "Invalid attribute of " + op.name() + " (must be one that translation gives LLVM: "
                        + String.join(", ", new java.util.TreeSet<>(allowed)) + "): " + k);
            }
        }
        if (op.attr("ordering") != null && !(op.attr("ordering") instanceof Attribute.IntegerAttr o
                && o.value() >= 0 && o.value() < ORDERINGS.size() && o.value() != 3)) {
            ctx.error(op, "Invalid ordering of " + op.name() + " (must be an atomic ordering 0 to 7, not 3): "
                    + op.attr("ordering"));
        }
        if (op.attr("alignment") != null && !(op.attr("alignment") instanceof Attribute.IntegerAttr a
                && a.value() > 0 && Long.bitCount(a.value()) == 1 && a.value() <= (1L << 32))) {
            ctx.error(op, "Invalid alignment of " + op.name() + " (must be a power of two): " + op.attr("alignment"));
        }
    }

    private static final Set<String> ELIDED_MEMORY = Set.of("volatile_", "ordering", "invariant");

    /**
     * {@code %v = llvm.load [volatile] %p [atomic <ordering>] [invariant] [{attrs}] : !llvm.ptr -> T}; the
     * attributes may hold {@code alignment} and {@code nontemporal}.
     */
    public static final class LoadOp extends OpView {
        /** The op's name. */
        public static final String NAME = "llvm.load";

        /**
         * Wraps {@code op}.
         *
         * @param op an {@code llvm.load} op
         * @throws IllegalArgumentException if {@code op} has another name
         */
        public LoadOp(Operation op) {
            super(op, NAME);
        }

        /**
         * Creates a load of a {@code type} value from {@code address}.
         *
         * @param loc the op's location
         * @param address the pointer to load from
         * @param type the type loaded
         * @return the new, detached op
         */
        public static LoadOp create(Location loc, Value address, Type type) {
            return new LoadOp(Operation.create(NAME, loc, List.of(address), List.of(type), Map.of()));
        }

        static OpDef definition() {
            return OpDef.of(NAME).inherent("alignment", "volatile_", "ordering", "invariant", "nontemporal",
                    "syncscope", "invariantGroup", "access_groups", "alias_scopes", "noalias_scopes", "tbaa")
                    .syntax(LoadOp::parse, (p, op) -> {
                        p.write(op.hasAttr("volatile_") ? " volatile " : " ").operand(op.operand(0));
                        printOrdering(p, op);
                        if (op.hasAttr("invariant")) {
                            p.write(" invariant");
                        }
                        p.attrDict(op, ELIDED_MEMORY);
                        p.write(" : ").type(op.operand(0).type()).write(" -> ").type(op.result(0).type());
                    }).verifier((op, ctx) -> {
                        expectPointer(op, ctx, "llvm.load address", op.operand(0).type());
                        expectMemoryType(op, ctx, "llvm.load result", op.result(0).type());
                        verifyMemoryAttributes(op, ctx, Set.of("alignment", "volatile_", "ordering", "invariant",
                                "nontemporal"));
                    });
        }

        static Operation parse(OpAsmParser p, int n, Location loc) {
            Map<String, Attribute> attrs = new LinkedHashMap<>();
            if (p.optionalKeyword("volatile")) {
                attrs.put("volatile_", Attribute.UNIT);
            }
            OpAsmParser.OperandRef addr = p.operandRef();
            parseOrdering(p, attrs);
            if (p.optionalKeyword("invariant")) {
                attrs.put("invariant", Attribute.UNIT);
            }
            attrs.putAll(p.optionalDictionary());
            p.expectPunct(':');
            Type pt = p.type();
            p.expectArrow();
            Type t = p.type();
            return Operation.create(NAME, loc, List.of(p.resolve(addr, pt)), List.of(t), attrs);
        }
    }

    /**
     * {@code llvm.store [volatile] %v, %p [atomic <ordering>] [{attrs}] : T, !llvm.ptr}; the attributes may
     * hold {@code alignment} and {@code nontemporal}.
     */
    public static final class StoreOp extends OpView {
        /** The op's name. */
        public static final String NAME = "llvm.store";

        /**
         * Wraps {@code op}.
         *
         * @param op an {@code llvm.store} op
         * @throws IllegalArgumentException if {@code op} has another name
         */
        public StoreOp(Operation op) {
            super(op, NAME);
        }

        /**
         * Creates a store of {@code value} to {@code address}.
         *
         * @param loc the op's location
         * @param value the value to store
         * @param address the pointer to store to
         * @return the new, detached op
         */
        public static StoreOp create(Location loc, Value value, Value address) {
            return new StoreOp(Operation.create(NAME, loc, List.of(value, address), List.of(), Map.of()));
        }

        static OpDef definition() {
            return OpDef.of(NAME).inherent("alignment", "volatile_", "ordering", "nontemporal", "syncscope",
                    "invariantGroup", "access_groups", "alias_scopes", "noalias_scopes", "tbaa")
                    .syntax(StoreOp::parse, (p, op) -> {
                        p.write(op.hasAttr("volatile_") ? " volatile " : " ").operands(op.operands());
                        printOrdering(p, op);
                        p.attrDict(op, ELIDED_MEMORY);
                        p.write(" : ").type(op.operand(0).type()).write(", ").type(op.operand(1).type());
                    }).verifier((op, ctx) -> {
                        expectPointer(op, ctx, "llvm.store address", op.operand(1).type());
                        expectMemoryType(op, ctx, "llvm.store value", op.operand(0).type());
                        verifyMemoryAttributes(op, ctx, Set.of("alignment", "volatile_", "ordering", "nontemporal"));
                    });
        }

        static Operation parse(OpAsmParser p, int n, Location loc) {
            Map<String, Attribute> attrs = new LinkedHashMap<>();
            if (p.optionalKeyword("volatile")) {
                attrs.put("volatile_", Attribute.UNIT);
            }
            OpAsmParser.OperandRef v = p.operandRef();
            p.expectPunct(',');
            OpAsmParser.OperandRef addr = p.operandRef();
            parseOrdering(p, attrs);
            attrs.putAll(p.optionalDictionary());
            p.expectPunct(':');
            Type vt = p.type();
            p.expectPunct(',');
            Type pt = p.type();
            return Operation.create(NAME, loc, List.of(p.resolve(v, vt), p.resolve(addr, pt)), List.of(), attrs);
        }
    }

    /**
     * {@code %q = llvm.getelementptr [inbounds] %p[i, %j, ...] : (!llvm.ptr, T) -> !llvm.ptr, E}: constant
     * indices are stored in {@code rawConstantIndices}, and each index given by an operand as
     * {@link #DYNAMIC_INDEX}.
     */
    public static final class GEPOp extends OpView {
        /** The op's name. */
        public static final String NAME = "llvm.getelementptr";

        /** The marker in {@code rawConstantIndices} for an index given by an operand. */
        public static final int DYNAMIC_INDEX = Integer.MIN_VALUE;

        /**
         * Wraps {@code op}.
         *
         * @param op an {@code llvm.getelementptr} op
         * @throws IllegalArgumentException if {@code op} has another name
         */
        public GEPOp(Operation op) {
            super(op, NAME);
        }

        /**
         * Creates an address computation; {@code indices} holds {@code Long} constants and {@code Value}s, in order.
         *
         * @param loc the op's location
         * @param base the base pointer
         * @param element the element type the indices step through
         * @param indices the indices, each a {@code Long} (or other {@code Number}) or a {@code Value}
         * @param inbounds whether the address stays within the allocation
         * @return the new, detached op, whose result has the base's type
         * @throws ClassCastException if an index is neither a {@code Number} nor a {@code Value}
         */
        public static GEPOp create(Location loc, Value base, Type element, List<Object> indices, boolean inbounds) {
            List<Value> ops = new ArrayList<>();
            ops.add(base);
            long[] raw = new long[indices.size()];
            for (int i = 0; i < raw.length; i++) {
                Object x = indices.get(i);
                if (x instanceof Value v) {
                    ops.add(v);
                    raw[i] = DYNAMIC_INDEX;
                } else {
                    raw[i] = ((Number) x).longValue();
                }
            }
            Map<String, Attribute> attrs = new LinkedHashMap<>();
            attrs.put("rawConstantIndices", new Attribute.DenseArrayAttr(Type.I32, raw));
            attrs.put("elem_type", new Attribute.TypeAttr(element));
            if (inbounds) {
                attrs.put("inbounds", Attribute.UNIT);
            }
            return new GEPOp(Operation.create(NAME, loc, ops, List.of(base.type()), attrs));
        }

        /**
         * The type the indices step through.
         *
         * @return the {@code elem_type} attribute's type
         */
        public Type elementType() {
            return ((Attribute.TypeAttr) op.attr("elem_type")).type();
        }

        static OpDef definition() {
            return OpDef.of(NAME).inherent("rawConstantIndices", "elem_type", "inbounds", "nuw")
                    .syntax(GEPOp::parse, GEPOp::print).verifier((op, ctx) -> {
                        expectPointer(op, ctx, "llvm.getelementptr base", op.operand(0).type());
                        expectMemoryType(op, ctx, "llvm.getelementptr element type",
                                ((Attribute.TypeAttr) op.attr("elem_type")).type());
                        verifyGepPath(op, ctx);
                        for (int i = 1; i < op.operandCount(); i++) {
                            if (!(op.operand(i).type() instanceof Type.IntegerType)) {
                                ctx.error(op, "Invalid llvm.getelementptr index (must be an integer): "
                                        + op.operand(i).type());
                            }
                        }
                    });
        }

        /** Every index after the first must step into a struct (by a constant in range) or an array. */
        private static void verifyGepPath(Operation op, VerifyContext ctx) {
            Attribute raw = op.attr("rawConstantIndices");
            Attribute elem = op.attr("elem_type");
            if (!(raw instanceof Attribute.DenseArrayAttr idx) || !(elem instanceof Attribute.TypeAttr t)) {
                ctx.error(op, "Invalid llvm.getelementptr (must have rawConstantIndices and elem_type): " + op.name());
                return;
            }
            int dynamic = 0;
            for (long v : idx.values()) {
                if (v == DYNAMIC_INDEX) {
                    dynamic++;
                }
            }
            if (dynamic != op.operandCount() - 1) {
                ctx.error(op, "Invalid llvm.getelementptr operands (must be the base and " + dynamic
                        + " dynamic indices): " + op.operandCount() + " operands");
                return;
            }
            if (idx.size() == 0) {
                ctx.error(op, "Invalid llvm.getelementptr indices (must be at least one): none");
                return;
            }
            Type cur = t.type();
            for (int i = 1; i < idx.size(); i++) {
                long v = idx.get(i);
                if (cur instanceof Type.LLVMStructType st) {
                    if (v == DYNAMIC_INDEX || v < 0 || v >= st.body().size()) {
                        ctx.error(op, "Invalid llvm.getelementptr index #" + i + " (must be a constant field number of "
                                + st + "): " + (v == DYNAMIC_INDEX ? "a value" : Long.toString(v)));
                        return;
                    }
                    cur = st.body().get((int) v);
                } else if (cur instanceof Type.LLVMArrayType a) {
                    cur = a.elementType();
                } else {
                    ctx.error(op, "Invalid llvm.getelementptr index #" + i + " (must index into a struct or array): "
                            + cur);
                    return;
                }
            }
        }

        static Operation parse(OpAsmParser p, int n, Location loc) {
            // The no-wrap flags, as upstream writes them: inbounds, nusw, nuw, joined by '|'.
            boolean inbounds = false;
            boolean nuw = false;
            while (p.atKeyword("inbounds") || p.atKeyword("nusw") || p.atKeyword("nuw")) {
                String f = p.keyword();
                inbounds |= f.equals("inbounds");
                nuw |= f.equals("nuw");
                if (!p.optionalPunct('|')) {
                    break;
                }
            }
            OpAsmParser.OperandRef base = p.operandRef();
            p.expectPunct('[');
            List<Long> raw = new ArrayList<>();
            List<OpAsmParser.OperandRef> dyn = new ArrayList<>();
            if (!p.optionalPunct(']')) {
                do {
                    if (p.atValue()) {
                        dyn.add(p.operandRef());
                        raw.add((long) DYNAMIC_INDEX);
                    } else {
                        raw.add(p.integer());
                    }
                } while (p.optionalPunct(','));
                p.expectPunct(']');
            }
            Map<String, Attribute> attrs = new LinkedHashMap<>(p.optionalDictionary());
            p.expectPunct(':');
            int off = p.offset();
            Type.FunctionType ft = p.functionType();
            p.expectPunct(',');
            Type elem = p.type();
            if (ft.inputs().size() != 1 + dyn.size() || ft.results().size() != 1) {
                throw p.errorAt(off, "Invalid llvm.getelementptr type (must list the base and " + dyn.size()
                        + " dynamic indices): " + ft);
            }
            List<Value> ops = new ArrayList<>();
            ops.add(p.resolve(base, ft.inputs().get(0)));
            for (int i = 0; i < dyn.size(); i++) {
                ops.add(p.resolve(dyn.get(i), ft.inputs().get(i + 1)));
            }
            long[] r = new long[raw.size()];
            for (int i = 0; i < r.length; i++) {
                r[i] = raw.get(i);
            }
            attrs.put("rawConstantIndices", new Attribute.DenseArrayAttr(Type.I32, r));
            attrs.put("elem_type", new Attribute.TypeAttr(elem));
            if (inbounds) {
                attrs.put("inbounds", Attribute.UNIT);
            }
            if (nuw) {
                attrs.put("nuw", Attribute.UNIT);
            }
            return Operation.create(NAME, loc, ops, ft.results(), attrs);
        }

        static void print(OpAsmPrinter p, Operation op) {
            if (op.hasAttr("inbounds") || op.hasAttr("nuw")) {
                p.write(" ").write(op.hasAttr("inbounds") && op.hasAttr("nuw") ? "inbounds|nuw"
                        : op.hasAttr("inbounds") ? "inbounds" : "nuw");
            }
            p.write(' ').operand(op.operand(0)).write('[');
            Attribute.DenseArrayAttr raw = (Attribute.DenseArrayAttr) op.attr("rawConstantIndices");
            int d = 1;
            for (int i = 0; i < raw.size(); i++) {
                if (i > 0) {
                    p.write(", ");
                }
                if (raw.get(i) == DYNAMIC_INDEX) {
                    p.operand(op.operand(d++));
                } else {
                    p.write(Long.toString(raw.get(i)));
                }
            }
            p.write(']');
            p.attrDict(op, Set.of("rawConstantIndices", "elem_type", "inbounds", "nuw"));
            p.write(" : ").type(new Type.FunctionType(Syntax.types(op.operands()), List.of(op.result(0).type())));
            p.write(", ").type(((Attribute.TypeAttr) op.attr("elem_type")).type());
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

    /**
     * Whether {@code t} is a type the llvm dialect's ops take: integers, floats, pointers, and structs and
     * arrays of them ({@code index}, memrefs and tokens are not).
     *
     * @param t the type
     * @return true if the llvm dialect's ops take {@code t}
     */
    public static boolean isCompatible(Type t) {
        if (t instanceof Type.LLVMStructType s) {
            return s.body().stream().allMatch(LLVM::isCompatible);
        }
        if (t instanceof Type.LLVMArrayType a) {
            return isCompatible(a.elementType());
        }
        return t instanceof Type.IntegerType || t instanceof Type.FloatType || t instanceof Type.LLVMPointerType;
    }

    /** Whether LLVM can hold a value of {@code t} in memory: integers, floats, pointers, structs, arrays. */
    static boolean isMemoryType(Type t) {
        if (t instanceof Type.LLVMStructType s) {
            return s.body().stream().allMatch(LLVM::isMemoryType);
        }
        if (t instanceof Type.LLVMArrayType a) {
            return isMemoryType(a.elementType());
        }
        return t instanceof Type.IntegerType || t instanceof Type.IndexType || t instanceof Type.FloatType
                || t instanceof Type.LLVMPointerType;
    }

    static void expectMemoryType(Operation op, VerifyContext ctx, String what, Type t) {
        if (!isMemoryType(t)) {
            ctx.error(op, "Invalid " + what + " (must be an integer, float, pointer, struct or array type): " + t);
        }
    }

    static void expectPointer(Operation op, VerifyContext ctx, String what, Type t) {
        if (!(t instanceof Type.LLVMPointerType)) {
            ctx.error(op, "Invalid " + what + " (must be !llvm.ptr): " + t);
        }
    }
}
