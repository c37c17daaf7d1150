package dev.mgpu.codegen.internal.host;

import dev.mgpu.codegen.internal.translate.DeviceTarget;
import dev.mgpu.codegen.internal.translate.ModuleTranslation;
import dev.mgpu.codegen.internal.translate.OpTable;
import dev.mgpu.codegen.internal.translate.Types;
import static org.bytedeco.llvm.global.LLVM.*;

import dev.mgpu.dialect.arith.Arith;
import dev.mgpu.dialect.arith.Casts;
import dev.mgpu.dialect.arith.Comparisons;
import dev.mgpu.dialect.cf.Cf;
import dev.mgpu.dialect.func.Func;
import dev.mgpu.dialect.llvm.LLVM;
import dev.mgpu.dialect.llvm.LLVMArithOps;
import dev.mgpu.dialect.llvm.LLVMFunctionOps;
import dev.mgpu.dialect.llvm.LLVMMemoryOps;
import dev.mgpu.dialect.vector.Vector;
import dev.mgpu.ir.Attribute;
import dev.mgpu.op.FlagsAttr;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import java.util.List;
import java.util.Map;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMBuilderRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/** Translations of the func, arith, cf and llvm ops. */
public final class HostTranslators {
    private HostTranslators() {
    }

    /** LLVM's integer predicates, in the order of {@link Comparisons.CmpIOp#PREDICATES}. */
    private static final int[] ICMP = {LLVMIntEQ, LLVMIntNE, LLVMIntSLT, LLVMIntSLE, LLVMIntSGT, LLVMIntSGE,
        LLVMIntULT, LLVMIntULE, LLVMIntUGT, LLVMIntUGE};

    @FunctionalInterface
    private interface Bin {
        LLVMValueRef build(LLVMBuilderRef b, LLVMValueRef x, LLVMValueRef y);
    }

    public static void register(Map<String, OpTable.OpTranslator<ModuleTranslation>> m) {
        m.put(Func.ReturnOp.NAME, HostTranslators::ret);
        m.put(LLVMFunctionOps.ReturnOp.NAME, HostTranslators::ret);
        m.put(Func.CallOp.NAME, HostTranslators::call);
        m.put(LLVMFunctionOps.CallOp.NAME, HostTranslators::call);
        m.put(Arith.ConstantOp.NAME, HostTranslators::constant);
        m.put(LLVM.ConstantOp.NAME, HostTranslators::constant);
        m.put(LLVM.ZeroOp.NAME, (op, t) -> t.map(op.result(0), LLVMConstNull(t.types.of(op.result(0).type(), op))));
        binary(m, (b, x, y) -> LLVMBuildAdd(b, x, y, ""), "addi", "add");
        binary(m, (b, x, y) -> LLVMBuildSub(b, x, y, ""), "subi", "sub");
        binary(m, (b, x, y) -> LLVMBuildMul(b, x, y, ""), "muli", "mul");
        binary(m, (b, x, y) -> LLVMBuildSDiv(b, x, y, ""), "divsi", "sdiv");
        binary(m, (b, x, y) -> LLVMBuildUDiv(b, x, y, ""), "divui", "udiv");
        binary(m, (b, x, y) -> LLVMBuildSRem(b, x, y, ""), "remsi", "srem");
        binary(m, (b, x, y) -> LLVMBuildURem(b, x, y, ""), "remui", "urem");
        binary(m, (b, x, y) -> LLVMBuildAnd(b, x, y, ""), "andi", "and");
        binary(m, (b, x, y) -> LLVMBuildOr(b, x, y, ""), "ori", "or");
        binary(m, (b, x, y) -> LLVMBuildXor(b, x, y, ""), "xori", "xor");
        binary(m, (b, x, y) -> LLVMBuildShl(b, x, y, ""), "shli", "shl");
        binary(m, (b, x, y) -> LLVMBuildAShr(b, x, y, ""), "shrsi", "ashr");
        binary(m, (b, x, y) -> LLVMBuildLShr(b, x, y, ""), "shrui", "lshr");
        binary(m, (b, x, y) -> LLVMBuildFAdd(b, x, y, ""), "addf", "fadd");
        binary(m, (b, x, y) -> LLVMBuildFSub(b, x, y, ""), "subf", "fsub");
        binary(m, (b, x, y) -> LLVMBuildFMul(b, x, y, ""), "mulf", "fmul");
        binary(m, (b, x, y) -> LLVMBuildFDiv(b, x, y, ""), "divf", "fdiv");
        minMax(m, "maxsi", LLVMIntSGT);
        minMax(m, "minsi", LLVMIntSLT);
        minMax(m, "maxui", LLVMIntUGT);
        minMax(m, "minui", LLVMIntULT);
        m.put(Comparisons.CmpIOp.NAME, HostTranslators::icmp);
        m.put(LLVMArithOps.ICmpOp.NAME, HostTranslators::icmp);
        m.put(Arith.BinaryOp.nameOf("remf"), (op, t) -> t.map(op.result(0), flags(op, LLVMBuildFRem(t.builder,
                t.lookup(op.operand(0), op), t.lookup(op.operand(1), op), ""))));
        for (String[] k : new String[][] {{"maximumf", "maximum"}, {"minimumf", "minimum"}, {"maxnumf", "maxnum"},
            {"minnumf", "minnum"}}) {
            m.put(Arith.BinaryOp.nameOf(k[0]), (op, t) -> {
                LLVMValueRef x = t.lookup(op.operand(0), op);
                String suffix = Types.floatSuffix(op.result(0).type());
                t.map(op.result(0), flags(op, DeviceTarget.call(t, "llvm." + k[1] + "." + suffix, LLVMTypeOf(x), x,
                        t.lookup(op.operand(1), op))));
            });
        }
        m.put(Arith.BinaryOp.nameOf("ceildivui"), (op, t) -> {
            LLVMValueRef a = t.lookup(op.operand(0), op);
            LLVMValueRef b = t.lookup(op.operand(1), op);
            LLVMValueRef one = LLVMConstInt(LLVMTypeOf(a), 1, 0);
            LLVMValueRef q = LLVMBuildAdd(t.builder, LLVMBuildUDiv(t.builder, LLVMBuildSub(t.builder, a, one, ""), b, ""),
                    one, "");
            LLVMValueRef zero = LLVMConstInt(LLVMTypeOf(a), 0, 0);
            t.map(op.result(0), LLVMBuildSelect(t.builder, LLVMBuildICmp(t.builder, LLVMIntEQ, a, zero, ""), zero, q, ""));
        });
        m.put(Arith.BinaryOp.nameOf("ceildivsi"), (op, t) -> t.map(op.result(0), signedRoundedDivision(op, t, true)));
        m.put(Arith.BinaryOp.nameOf("floordivsi"), (op, t) -> t.map(op.result(0), signedRoundedDivision(op, t, false)));
        m.put(Comparisons.CmpFOp.NAME, (op, t) -> t.map(op.result(0), flags(op, LLVMBuildFCmp(t.builder,
                FCMP[new Comparisons.CmpFOp(op).predicate()], t.lookup(op.operand(0), op), t.lookup(op.operand(1), op), ""))));
        m.put(Arith.NegFOp.NAME, (op, t) -> t.map(op.result(0), flags(op, LLVMBuildFNeg(t.builder,
                t.lookup(op.operand(0), op), ""))));
        m.put(Comparisons.SelectOp.NAME, (op, t) -> t.map(op.result(0), LLVMBuildSelect(t.builder,
                t.lookup(op.operand(0), op), t.lookup(op.operand(1), op), t.lookup(op.operand(2), op), "")));
        for (String k : Casts.CastOp.KINDS) {
            m.put(Casts.CastOp.nameOf(k), HostTranslators::cast);
        }
        for (String k : LLVMArithOps.CastOp.KINDS) {
            m.put(LLVMArithOps.CastOp.nameOf(k), HostTranslators::cast);
        }
        m.put(Cf.BrOp.NAME, HostTranslators::br);
        m.put(LLVM.BR, HostTranslators::br);
        m.put(Cf.CondBrOp.NAME, HostTranslators::condBr);
        m.put(LLVM.COND_BR, HostTranslators::condBr);
        m.put(Cf.AssertOp.NAME, HostTranslators::assertion);
        m.put(Vector.PrintOp.NAME, HostTranslators::vectorPrint);
        m.put(LLVMMemoryOps.AllocaOp.NAME, HostTranslators::alloca);
        m.put(LLVMMemoryOps.LoadOp.NAME, HostTranslators::load);
        m.put(LLVMMemoryOps.StoreOp.NAME, HostTranslators::store);
        m.put(LLVMMemoryOps.GEPOp.NAME, HostTranslators::gep);
    }

    /** One translation for the arith op {@code arithKind} and the llvm op {@code llvmKind}. */
    private static void binary(Map<String, OpTable.OpTranslator<ModuleTranslation>> m, Bin bin, String arithKind,
            String llvmKind) {
        OpTable.OpTranslator<ModuleTranslation> tr = (op, t) -> t.map(op.result(0),
                flags(op, bin.build(t.builder, t.lookup(op.operand(0), op), t.lookup(op.operand(1), op))));
        m.put(Arith.BinaryOp.nameOf(arithKind), tr);
        m.put(LLVMArithOps.BinaryOp.nameOf(llvmKind), tr);
    }

    /** LLVM's fast-math bits, in the order of {@code Arith.FASTMATH_FLAGS} (fast is all of them). */
    private static final int[] FASTMATH_BITS = {LLVMFastMathAllowReassoc, LLVMFastMathNoNaNs, LLVMFastMathNoInfs,
        LLVMFastMathNoSignedZeros, LLVMFastMathAllowReciprocal, LLVMFastMathAllowContract, LLVMFastMathApproxFunc,
        LLVMFastMathAll};

    /**
     * Gives {@code v} the op's no-wrap and fast-math flags. LLVM folds an operation on constants into a
     * constant, which has no flags to set.
     */
    private static LLVMValueRef flags(Operation op, LLVMValueRef v) {
        if (LLVMIsAInstruction(v) == null || LLVMIsAInstruction(v).isNull()) {
            return v;
        }
        Attribute o = op.attr("overflowFlags");
        long wrap = o instanceof FlagsAttr f ? (f.has("nsw") ? 1 : 0) | (f.has("nuw") ? 2 : 0)
                : o instanceof Attribute.IntegerAttr i ? i.value() : 0;
        if ((wrap & 1) != 0) {
            LLVMSetNSW(v, 1);
        }
        if ((wrap & 2) != 0) {
            LLVMSetNUW(v, 1);
        }
        Attribute fm = op.attr(op.dialect().equals("llvm") ? "fastmathFlags" : "fastmath");
        if (fm instanceof FlagsAttr f && !f.flags().isEmpty() && LLVMCanValueUseFastMathFlags(v) != 0) {
            int mask = 0;
            for (int k = 0; k < Arith.FASTMATH_FLAGS.size(); k++) {
                if (f.has(Arith.FASTMATH_FLAGS.get(k))) {
                    mask |= FASTMATH_BITS[k];
                }
            }
            LLVMSetFastMathFlags(v, mask);
        }
        return v;
    }

    /** LLVM's float predicates, in the order of {@link Comparisons.CmpFOp#PREDICATES}. */
    private static final int[] FCMP = {LLVMRealPredicateFalse, LLVMRealOEQ, LLVMRealOGT, LLVMRealOGE, LLVMRealOLT,
        LLVMRealOLE, LLVMRealONE, LLVMRealORD, LLVMRealUEQ, LLVMRealUGT, LLVMRealUGE, LLVMRealULT, LLVMRealULE,
        LLVMRealUNE, LLVMRealUNO, LLVMRealPredicateTrue};

    /** LLVM's float predicate for the number of an arith.cmpf or llvm.fcmp predicate (they share the order). */
    public static int fcmpPredicate(int n) {
        return FCMP[n];
    }

    /**
     * {@code a / b} rounded towards positive ({@code ceil}) or negative infinity: the truncated quotient,
     * moved by one when there is a remainder whose sign says the exact quotient lies beyond it.
     */
    private static LLVMValueRef signedRoundedDivision(Operation op, ModuleTranslation t, boolean ceil) {
        LLVMValueRef a = t.lookup(op.operand(0), op);
        LLVMValueRef b = t.lookup(op.operand(1), op);
        LLVMTypeRef ty = LLVMTypeOf(a);
        LLVMValueRef zero = LLVMConstInt(ty, 0, 0);
        LLVMValueRef q = LLVMBuildSDiv(t.builder, a, b, "");
        LLVMValueRef r = LLVMBuildSRem(t.builder, a, b, "");
        LLVMValueRef inexact = LLVMBuildICmp(t.builder, LLVMIntNE, r, zero, "");
        LLVMValueRef sameSign = LLVMBuildICmp(t.builder, LLVMIntEQ, LLVMBuildICmp(t.builder, LLVMIntSLT, r, zero, ""),
                LLVMBuildICmp(t.builder, LLVMIntSLT, b, zero, ""), "");
        LLVMValueRef move = LLVMBuildAnd(t.builder, inexact, ceil ? sameSign : LLVMBuildNot(t.builder, sameSign, ""), "");
        LLVMValueRef adj = LLVMBuildSelect(t.builder, move, LLVMConstInt(ty, ceil ? 1 : -1, 1), zero, "");
        return LLVMBuildAdd(t.builder, q, adj, "");
    }

    private static void minMax(Map<String, OpTable.OpTranslator<ModuleTranslation>> m, String kind, int pred) {
        m.put(Arith.BinaryOp.nameOf(kind), (op, t) -> {
            LLVMValueRef x = t.lookup(op.operand(0), op);
            LLVMValueRef y = t.lookup(op.operand(1), op);
            LLVMValueRef c = LLVMBuildICmp(t.builder, pred, x, y, "");
            t.map(op.result(0), LLVMBuildSelect(t.builder, c, x, y, ""));
        });
    }

    /**
     * cf.assert: where the condition is false, the message. On the host: on stderr, then {@code abort()}; in a
     * kernel, as the target reports assertions ({@link DeviceTarget#assertFailed}).
     */
    private static void assertion(Operation op, ModuleTranslation t) {
        Cf.AssertOp a = new Cf.AssertOp(op);
        LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(t.builder));
        LLVMBasicBlockRef failed = LLVMAppendBasicBlockInContext(t.ctx, fn, "");
        LLVMBasicBlockRef holds = LLVMAppendBasicBlockInContext(t.ctx, fn, "");
        LLVMBuildCondBr(t.builder, t.lookup(a.condition(), op), holds, failed);
        LLVMPositionBuilderAtEnd(t.builder, failed);
        byte[] msg = ((dev.mgpu.ir.Attribute.StringAttr) op.attr("msg")).bytes();
        if (t.device != null) {
            t.device.assertFailed(t, op, msg);
        } else {
            byte[] line = java.util.Arrays.copyOf(msg, msg.length + 1);
            line[msg.length] = '\n';
            LLVMTypeRef i32 = LLVMInt32TypeInContext(t.ctx);
            DeviceTarget.call(t, "write", t.types.intptr, LLVMConstInt(i32, 2, 0), DeviceTarget.cString(t, line, 0),
                    LLVMConstInt(t.types.intptr, line.length, 0));
            DeviceTarget.call(t, "abort", LLVMVoidTypeInContext(t.ctx));
            LLVMBuildUnreachable(t.builder);
        }
        LLVMPositionBuilderAtEnd(t.builder, holds);
    }

    /**
     * vector.print, as upstream's vector-to-llvm lowers it: the runner utilities' {@code printI64} (integers
     * widened by sign, {@code i1} by zero), {@code printU64} (index), {@code printF16}/{@code printBF16} (the
     * bits), {@code printF32}, {@code printF64}, {@code printString}, then the punctuation's function.
     */
    private static void vectorPrint(Operation op, ModuleTranslation t) {
        if (t.device != null) {
            throw ModuleTranslation.error(op, "Invalid vector.print in a kernel (must be in host code, which prints"
                    + " through the runner utilities; gpu.printf prints from kernels)");
        }
        Vector.PrintOp p = new Vector.PrintOp(op);
        LLVMTypeRef none = LLVMVoidTypeInContext(t.ctx);
        if (p.source() != null && p.source().type() instanceof Type.VectorType vt) {
            // ( a, b, c ): each element as a scalar of its type is printed.
            LLVMValueRef all = t.lookup(p.source(), op);
            DeviceTarget.call(t, "printOpen", none);
            for (int i = 0; i < vt.count(); i++) {
                if (i > 0) {
                    DeviceTarget.call(t, "printComma", none);
                }
                printScalar(t, vt.elementType(), LLVMBuildExtractElement(t.builder, all,
                        LLVMConstInt(LLVMInt32TypeInContext(t.ctx), i, 0), ""));
            }
            DeviceTarget.call(t, "printClose", none);
        } else if (p.source() != null) {
            printScalar(t, p.source().type(), t.lookup(p.source(), op));
        }
        if (p.string() != null) {
            byte[] s = p.string().bytes();
            LLVMValueRef text = DeviceTarget.cString(t, java.util.Arrays.copyOf(s, s.length + 1), 0);
            DeviceTarget.call(t, "printString", none, text);
        }
        String mark = switch (p.punctuation()) {
            case "comma" -> "printComma";
            case "open" -> "printOpen";
            case "close" -> "printClose";
            case "no_punctuation" -> null;
            default -> p.string() != null && op.attr("punctuation") == null ? null : "printNewline";
        };
        if (mark != null) {
            DeviceTarget.call(t, mark, none);
        }
    }

    /** One number through the runner utilities' print function of its type. */
    private static void printScalar(ModuleTranslation t, Type type, LLVMValueRef v) {
        LLVMTypeRef i64 = LLVMInt64TypeInContext(t.ctx);
        String fn;
        if (type instanceof Type.FloatType f) {
            fn = switch (f.kind()) {
                case F16 -> "printF16";
                case BF16 -> "printBF16";
                case F32 -> "printF32";
                default -> "printF64";
            };
            if (f.width() == 16) {
                v = LLVMBuildBitCast(t.builder, v, LLVMInt16TypeInContext(t.ctx), "");
            }
        } else {
            boolean signed = type instanceof Type.IntegerType it && it.width() > 1;
            fn = type instanceof Type.IndexType ? "printU64" : "printI64";
            v = LLVMBuildIntCast2(t.builder, v, i64, signed ? 1 : 0, "");
        }
        DeviceTarget.call(t, fn, LLVMVoidTypeInContext(t.ctx), v);
    }

    public static void ret(Operation op, ModuleTranslation t) {
        List<LLVMValueRef> vs = t.lookup(op.operands(), op);
        if (vs.isEmpty()) {
            LLVMBuildRetVoid(t.builder);
        } else if (vs.size() == 1) {
            LLVMBuildRet(t.builder, vs.get(0));
        } else {
            List<Type> rt = op.operands().stream().map(Value::type).toList();
            LLVMValueRef agg = LLVMGetUndef(t.types.results(rt, op));
            for (int i = 0; i < vs.size(); i++) {
                agg = LLVMBuildInsertValue(t.builder, agg, vs.get(i), i, "");
            }
            LLVMBuildRet(t.builder, agg);
        }
    }

    private static void call(Operation op, ModuleTranslation t) {
        String callee = ((Attribute.SymbolRefAttr) op.attr("callee")).leaf();
        LLVMValueRef fn = t.function(callee, op);
        LLVMTypeRef ft = LLVMGlobalGetValueType(fn);
        List<LLVMValueRef> args = new java.util.ArrayList<>();
        for (Value v : op.operands()) {
            LLVMValueRef a = t.lookup(v, op);
            if (t.device != null) {
                args.add(a);
            } else if (op.name().equals(Func.CallOp.NAME) && v.type() instanceof Type.MemRefType m) {
                args.addAll(Types.fields(t.builder, a, m.rank()));
            } else if (op.name().equals(Func.CallOp.NAME) && v.type() instanceof Type.UnrankedMemRefType) {
                LLVMValueRef rank = LLVMBuildExtractValue(t.builder, a, 0, "");
                if (t.types.intptrWidth != 64) {
                    rank = LLVMBuildSExt(t.builder, rank, LLVMInt64TypeInContext(t.ctx), "");
                }
                args.add(rank);
                args.add(LLVMBuildExtractValue(t.builder, a, 1, ""));
            } else {
                args.add(a);
            }
        }
        if (t.takesHiddenArguments(callee)) {
            args.addAll(t.device.hiddenArguments(t));
        }
        LLVMValueRef r;
        try (PointerPointer<LLVMValueRef> p = new PointerPointer<>(args.toArray(new LLVMValueRef[0]))) {
            r = LLVMBuildCall2(t.builder, ft, fn, p, args.size(), "");
        }
        if (op.resultCount() == 1) {
            t.map(op.result(0), r);
        } else {
            for (int i = 0; i < op.resultCount(); i++) {
                t.map(op.result(i), LLVMBuildExtractValue(t.builder, r, i, ""));
            }
        }
    }

    private static void constant(Operation op, ModuleTranslation t) {
        Attribute v = op.attr("value");
        LLVMTypeRef ty = t.types.of(op.result(0).type(), op);
        if (v instanceof Attribute.IntegerAttr i) {
            t.map(op.result(0), LLVMConstInt(ty, i.value(), 1));
        } else if (v instanceof Attribute.FloatAttr f) {
            t.map(op.result(0), Types.floatConstant(ty, f.value(), (Type.FloatType) f.type()));
        } else {
            throw ModuleTranslation.error(op, "Invalid constant (must be an integer or float): " + v);
        }
    }

    private static void icmp(Operation op, ModuleTranslation t) {
        long p = ((Attribute.IntegerAttr) op.attr("predicate")).value();
        t.map(op.result(0), LLVMBuildICmp(t.builder, ICMP[(int) p], t.lookup(op.operand(0), op),
                t.lookup(op.operand(1), op), ""));
    }

    private static void cast(Operation op, ModuleTranslation t) {
        LLVMValueRef x = t.lookup(op.operand(0), op);
        Type from = op.operand(0).type();
        LLVMTypeRef to = t.types.of(op.result(0).type(), op);
        String k = op.name().substring(op.name().indexOf('.') + 1);
        if (t.device != null) {
            t.device.checkCast(op, k, from, op.result(0).type());
        }
        LLVMBuilderRef b = t.builder;
        LLVMValueRef r;
        switch (k) {
            case "index_cast":
            case "index_castui": {
                int fw = LLVMGetIntTypeWidth(LLVMTypeOf(x));
                int tw = LLVMGetIntTypeWidth(to);
                if (fw == tw) {
                    r = x;
                } else if (fw > tw) {
                    r = LLVMBuildTrunc(b, x, to, "");
                } else {
                    // Casting to index sign-extends, except for the unsigned variant.
                    r = k.equals("index_castui") ? LLVMBuildZExt(b, x, to, "") : LLVMBuildSExt(b, x, to, "");
                }
                break;
            }
            case "extsi": case "sext": r = LLVMBuildSExt(b, x, to, ""); break;
            case "extui": case "zext": r = LLVMBuildZExt(b, x, to, ""); break;
            case "trunci": case "trunc": r = LLVMBuildTrunc(b, x, to, ""); break;
            case "sitofp": r = LLVMBuildSIToFP(b, x, to, ""); break;
            case "uitofp": r = LLVMBuildUIToFP(b, x, to, ""); break;
            case "fptosi": r = LLVMBuildFPToSI(b, x, to, ""); break;
            case "fptoui": r = LLVMBuildFPToUI(b, x, to, ""); break;
            case "extf": case "fpext": r = LLVMBuildFPExt(b, x, to, ""); break;
            case "truncf": case "fptrunc": r = LLVMBuildFPTrunc(b, x, to, ""); break;
            case "addrspacecast": r = LLVMBuildAddrSpaceCast(b, x, to, ""); break;
            case "ptrtoint": r = LLVMBuildPtrToInt(b, x, to, ""); break;
            case "inttoptr": r = LLVMBuildIntToPtr(b, x, to, ""); break;
            default: r = bitCast(t, x, to); break;
        }
        if (from == null) {
            throw ModuleTranslation.error(op, "Invalid cast operand");
        }
        t.map(op.result(0), r);
    }

    /**
     * {@code x} as {@code to}, bit for bit. Between bf16 and f16 the bits go through an i16: LLVM does not fold
     * a bitcast of a bf16 constant to f16 (nor back), and its NVPTX back end then aborts on the constant
     * expression ("Cannot select: f16 = bitcast ConstantFP:bf16"); through an i16 each step folds.
     */
    private static LLVMValueRef bitCast(ModuleTranslation t, LLVMValueRef x, LLVMTypeRef to) {
        int from = LLVMGetTypeKind(LLVMTypeOf(x));
        int into = LLVMGetTypeKind(to);
        if (from != into && (from == LLVMHalfTypeKind || from == LLVMBFloatTypeKind)
                && (into == LLVMHalfTypeKind || into == LLVMBFloatTypeKind)) {
            x = LLVMBuildBitCast(t.builder, x, LLVMInt16TypeInContext(t.ctx), "");
        }
        return LLVMBuildBitCast(t.builder, x, to, "");
    }

    private static void br(Operation op, ModuleTranslation t) {
        t.addIncoming(op.successors().get(0), op.operands(), op);
        LLVMBuildBr(t.builder, t.block(op.successors().get(0)));
    }

    private static void condBr(Operation op, ModuleTranslation t) {
        t.addIncoming(op.successors().get(0), op.segment(1), op);
        t.addIncoming(op.successors().get(1), op.segment(2), op);
        LLVMValueRef br = LLVMBuildCondBr(t.builder, t.lookup(op.operand(0), op), t.block(op.successors().get(0)),
                t.block(op.successors().get(1)));
        if (op.attr("branch_weights") instanceof Attribute.DenseArrayAttr w) {
            LLVMTypeRef i32 = LLVMInt32TypeInContext(t.ctx);
            metadata(t, br, "prof", LLVMMDStringInContext(t.ctx, "branch_weights", 14), LLVMConstInt(i32, w.get(0), 0),
                    LLVMConstInt(i32, w.get(1), 0));
        }
    }

    private static int alignment(Operation op) {
        return op.attr("alignment") instanceof Attribute.IntegerAttr a ? (int) a.value() : 0;
    }

    private static void alloca(Operation op, ModuleTranslation t) {
        LLVMTypeRef elem = t.types.of(((Attribute.TypeAttr) op.attr("elem_type")).type(), op);
        LLVMValueRef a = LLVMBuildArrayAlloca(t.builder, elem, t.lookup(op.operand(0), op), "");
        if (alignment(op) > 0) {
            LLVMSetAlignment(a, alignment(op));
        }
        t.map(op.result(0), a);
    }

    private static void load(Operation op, ModuleTranslation t) {
        LLVMValueRef l = LLVMBuildLoad2(t.builder, t.types.of(op.result(0).type(), op), t.lookup(op.operand(0), op), "");
        memoryAccess(op, t, l);
        if (op.hasAttr("invariant")) {
            metadata(t, l, "invariant.load");
        }
        t.map(op.result(0), l);
    }

    private static void store(Operation op, ModuleTranslation t) {
        memoryAccess(op, t, LLVMBuildStore(t.builder, t.lookup(op.operand(0), op), t.lookup(op.operand(1), op)));
    }

    /** What a load and a store share: alignment, volatility, atomic ordering, the nontemporal hint. */
    private static void memoryAccess(Operation op, ModuleTranslation t, LLVMValueRef access) {
        if (alignment(op) > 0) {
            LLVMSetAlignment(access, alignment(op));
        }
        if (op.hasAttr("volatile_")) {
            LLVMSetVolatile(access, 1);
        }
        if (op.attr("ordering") instanceof Attribute.IntegerAttr o && o.value() != 0) {
            LLVMSetOrdering(access, (int) o.value());
        }
        if (op.hasAttr("nontemporal")) {
            metadata(t, access, "nontemporal", LLVMConstInt(LLVMInt32TypeInContext(t.ctx), 1, 0));
        }
    }

    /** Attaches {@code !kind !{values}} to {@code inst}. */
    private static void metadata(ModuleTranslation t, LLVMValueRef inst, String kind, LLVMValueRef... values) {
        try (PointerPointer<LLVMValueRef> p = new PointerPointer<>(values)) {
            LLVMValueRef node = LLVMMDNodeInContext(t.ctx, p, values.length);
            LLVMSetMetadata(inst, LLVMGetMDKindIDInContext(t.ctx, kind, kind.length()), node);
        }
    }

    private static void gep(Operation op, ModuleTranslation t) {
        Type elemType = ((Attribute.TypeAttr) op.attr("elem_type")).type();
        Attribute.DenseArrayAttr raw = (Attribute.DenseArrayAttr) op.attr("rawConstantIndices");
        LLVMValueRef[] idx = new LLVMValueRef[raw.size()];
        int dyn = 1;
        Type cur = elemType;
        for (int i = 0; i < idx.length; i++) {
            long r = raw.get(i);
            boolean intoStruct = i > 0 && cur instanceof Type.LLVMStructType;
            if (r == LLVMMemoryOps.GEPOp.DYNAMIC_INDEX) {
                if (intoStruct) {
                    throw ModuleTranslation.error(op, "Invalid llvm.getelementptr index (must be a constant when"
                            + " indexing a struct): operand " + dyn);
                }
                idx[i] = t.lookup(op.operand(dyn++), op);
            } else {
                idx[i] = LLVMConstInt(intoStruct ? LLVMInt32TypeInContext(t.ctx) : LLVMInt64TypeInContext(t.ctx), r, 1);
            }
            if (i > 0) {
                if (cur instanceof Type.LLVMStructType s && r != LLVMMemoryOps.GEPOp.DYNAMIC_INDEX && r >= 0 && r < s.body().size()) {
                    cur = s.body().get((int) r);
                } else if (cur instanceof Type.LLVMArrayType a) {
                    cur = a.elementType();
                } else if (cur instanceof Type.LLVMStructType s) {
                    throw ModuleTranslation.error(op, "Invalid llvm.getelementptr index (must select a field of "
                            + s + "): " + r);
                }
            }
        }
        LLVMValueRef g;
        try (PointerPointer<LLVMValueRef> p = new PointerPointer<>(idx)) {
            LLVMTypeRef et = t.types.of(elemType, op);
            LLVMValueRef base = t.lookup(op.operand(0), op);
            g = op.hasAttr("inbounds") ? LLVMBuildInBoundsGEP2(t.builder, et, base, p, idx.length, "")
                    : LLVMBuildGEP2(t.builder, et, base, p, idx.length, "");
        }
        t.map(op.result(0), g);
    }
}
