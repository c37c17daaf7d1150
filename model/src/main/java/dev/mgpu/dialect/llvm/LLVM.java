package dev.mgpu.dialect.llvm;

import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.op.AttrDef;
import dev.mgpu.op.BranchSyntax;
import dev.mgpu.op.ConstantRangeAttr;
import dev.mgpu.op.FlagsAttr;
import dev.mgpu.op.OpDef;
import dev.mgpu.op.OpView;
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
 * The host-code subset of the llvm dialect: its types, its attributes, every op it registers, and the
 * constants {@code llvm.mlir.constant} and {@code llvm.mlir.zero}. The other ops are in
 * {@link LLVMFunctionOps} (functions and calls), {@link LLVMArithOps} (comparisons, arithmetic and casts),
 * {@link LLVMMemoryOps} (allocas, loads, stores and address computations) and {@link LLVMKernelOps} (the
 * ops of lowered kernels). Each op (or family of ops that share one syntax and rule) is a nested class with
 * its name, accessors, syntax and rules; {@code llvm.br} and {@code llvm.cond_br} are the cf ops under llvm
 * names.
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
        defs.add(LLVMFunctionOps.FuncOp.definition());
        defs.add(LLVMFunctionOps.ReturnOp.definition());
        defs.add(LLVMFunctionOps.CallOp.definition());
        defs.add(ConstantOp.definition());
        defs.add(ZeroOp.definition());
        defs.add(BranchSyntax.branch(BR, LLVM::isCompatible));
        defs.add(BranchSyntax.conditionalBranch(COND_BR, LLVM::isCompatible));
        defs.add(LLVMArithOps.ICmpOp.definition());
        defs.addAll(LLVMArithOps.BinaryOp.definitions());
        defs.addAll(LLVMArithOps.CastOp.definitions());
        defs.addAll(LLVMKernelOps.definitions());
        defs.add(LLVMMemoryOps.AllocaOp.definition());
        defs.add(LLVMMemoryOps.LoadOp.definition());
        defs.add(LLVMMemoryOps.StoreOp.definition());
        defs.add(LLVMMemoryOps.GEPOp.definition());
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

    /** The fast-math flags of {@code #llvm.fastmath<...>}, in the order of LLVM's bits, in which upstream prints them. */
    public static final List<String> FASTMATH_FLAGS = List.of("nnan", "ninf", "nsz", "arcp", "contract", "afn",
            "reassoc", "fast");

    /**
     * The llvm attributes: linkage, calling convention, fast-math and tail-call flags, and debug info.
     *
     * @return the attribute definitions
     */
    public static List<AttrDef> attributes() {
        List<AttrDef> defs = new java.util.ArrayList<>(List.of(new AttrDef(LinkageAttr.NAME, LinkageAttr::parse),
                new AttrDef(CConvAttr.NAME, CConvAttr::parse),
                new AttrDef("llvm.fastmath", (p, off) -> FlagsAttr.parse(p, "llvm.fastmath", FASTMATH_FLAGS)),
                new AttrDef("llvm.tailcallkind", (p, off) -> FlagsAttr.parse(p, "llvm.tailcallkind",
                        List.of("tail", "musttail", "notail")))));
        defs.addAll(DebugInfoAttr.definitions());
        defs.add(new AttrDef(ConstantRangeAttr.NAME, (p, off) -> ConstantRangeAttr.parseBody(p)));
        return defs;
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
}
