package dev.mgpu.codegen.internal.kernel;

import dev.mgpu.codegen.internal.translate.DeviceTarget;
import dev.mgpu.codegen.internal.translate.ModuleTranslation;
import dev.mgpu.codegen.internal.translate.Types;
import static org.bytedeco.llvm.global.LLVM.*;
import static dev.mgpu.codegen.internal.kernel.KernelChecks.*;
import static dev.mgpu.codegen.internal.kernel.LoweredKernelTranslators.*;

import dev.mgpu.dialect.math.MathDialect;
import dev.mgpu.ir.MgpuException;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import java.util.List;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * Translations of the math dialect in kernel bodies: what a target computes natively, else the function of
 * its device library (libdevice, libm), or a located error where that library is not linked.
 */
public final class KernelMathTranslators {
    private KernelMathTranslators() {
    }

    /** absi, ctlz, cttz and ctpop: LLVM's intrinsics, defined for every value (zero included), as upstream's. */
    public static void integerMath(Operation op, ModuleTranslation t) {
        device(op, t);
        LLVMValueRef x = t.lookup(op.operand(0), op);
        LLVMTypeRef ty = LLVMTypeOf(x);
        String kind = new MathDialect.FunctionOp(op).kind();
        String name = "llvm." + (kind.equals("absi") ? "abs" : kind) + ".i" + LLVMGetIntTypeWidth(ty);
        LLVMValueRef r = kind.equals("ctpop") ? DeviceTarget.call(t, name, ty, x)
                : DeviceTarget.call(t, name, ty, x, LLVMConstInt(LLVMInt1TypeInContext(t.ctx), 0, 0));
        t.map(op.result(0), r);
    }

    /** isnan, isinf, isfinite and isnormal: LLVM's llvm.is.fpclass, with the IEEE classes of each. */
    public static void floatClass(Operation op, ModuleTranslation t) {
        device(op, t);
        LLVMValueRef x = t.lookup(op.operand(0), op);
        // LLVM's class bits: signalling and quiet NaN 0x3, infinities 0x4 and 0x200, normals 0x8 and 0x100;
        // finite is every class but NaNs and infinities.
        int mask = switch (new MathDialect.FunctionOp(op).kind()) {
            case "isnan" -> 0x3;
            case "isinf" -> 0x204;
            case "isnormal" -> 0x108;
            default -> 0x1f8;
        };
        t.map(op.result(0), DeviceTarget.call(t, "llvm.is.fpclass." + Types.floatSuffix(op.operand(0).type()),
                LLVMInt1TypeInContext(t.ctx), x, LLVMConstInt(LLVMInt32TypeInContext(t.ctx), mask, 0)));
    }

    public static void math(Operation op, ModuleTranslation t) {
        DeviceTarget d = device(op, t);
        MathDialect.FunctionOp f = new MathDialect.FunctionOp(op);
        Type.FloatType ft = (Type.FloatType) op.result(0).type();
        LLVMTypeRef ty = t.types.of(ft, op);
        List<LLVMValueRef> args = t.lookup(op.operands(), op);
        String intrinsic = switch (f.kind()) {
            case "absf" -> "fabs";
            case "powf" -> "pow";
            default -> f.kind();
        };
        if (ft.width() == 16 && !DeviceTarget.EXACT.contains(intrinsic)) {
            // f16 and bf16, as upstream's lowering has them: the f32 function of the operands extended, rounded
            // back (no target has these functions for 16-bit floats in its library).
            LLVMTypeRef f32 = LLVMFloatTypeInContext(t.ctx);
            List<LLVMValueRef> wide = args.stream().map(a -> LLVMBuildFPExt(t.builder, a, f32, "")).toList();
            LLVMValueRef r = function(op, t, d, Type.F32, f32, intrinsic, wide);
            t.map(op.result(0), LLVMBuildFPTrunc(t.builder, r, ty, ""));
            return;
        }
        t.map(op.result(0), function(op, t, d, ft, ty, intrinsic, args));
    }

    /** The math function {@code intrinsic} of {@code args}, computed in {@code ft} ({@code ty}). */
    public static LLVMValueRef function(Operation op, ModuleTranslation t, DeviceTarget d, Type.FloatType ft,
            LLVMTypeRef ty, String intrinsic, List<LLVMValueRef> args) {
        if (intrinsic.equals("rsqrt")) {
            LLVMValueRef s = DeviceTarget.call(t, "llvm.sqrt." + Types.floatSuffix(ft), ty, args.get(0));
            return LLVMBuildFDiv(t.builder, LLVMConstReal(ty, 1.0), s, "");
        }
        if (DeviceTarget.EXACT.contains(intrinsic) || ft.width() == 32 && d.nativeF32().contains(intrinsic)) {
            d.nativeMathUsed(t, intrinsic, ft.width());
            return DeviceTarget.call(t, "llvm." + intrinsic + "." + Types.floatSuffix(ft), ty, args.toArray(new LLVMValueRef[0]));
        }
        String lib = ft.width() == 32 || ft.width() == 64 ? d.libraryFunction(intrinsic, ft.width() == 64) : null;
        if (lib == null || !t.device.libraryAvailable()) {
            throw new MgpuException(op.knownLocation(), "Invalid " + op.name() + " on " + op.result(0).type() + " for "
                    + d.name() + " (must be a function the target computes natively, or " + d.libraryName() + " must be"
                    + " linked" + (lib == null ? "" : ": it provides " + lib) + "): " + new MathDialect.FunctionOp(op).kind());
        }
        t.device.libraryUsed(lib);
        return DeviceTarget.callLibrary(t, d.libraryName(), lib, ty, args.toArray(new LLVMValueRef[0]));
    }
}
