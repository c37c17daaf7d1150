package dev.mgpu.codegen.internal.device.cpu;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.mgpu.ir.MgpuException;
import dev.mgpu.ir.Operation;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMContextRef;
import org.bytedeco.llvm.LLVM.LLVMMemoryBufferRef;
import org.bytedeco.llvm.LLVM.LLVMModuleRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * The run-time helpers that the host's back end calls for operations it does not expand inline, where the C
 * compiler's own library lacks them (GCC 12's libgcc has no bf16 conversions): defined in the kernel module,
 * internal, when it has the operation that needs them. And the check that the linked shared object needs
 * nothing that the C library, libm and libgcc do not provide when it is loaded.
 */
final class CpuBuiltins {
    private CpuBuiltins() {
    }

    /** float to bfloat, rounding to nearest even; a NaN stays a (quiet) NaN. */
    private static final String TRUNC_SF_BF = """
            define hidden bfloat @__truncsfbf2(float %x) {
              %b = bitcast float %x to i32
              %abs = and i32 %b, 2147483647
              %nan = icmp ugt i32 %abs, 2139095040
              %hi = lshr i32 %b, 16
              %quiet = or i32 %hi, 64
              %lsb = and i32 %hi, 1
              %bias = add i32 %lsb, 32767
              %sum = add i32 %b, %bias
              %rounded = lshr i32 %sum, 16
              %s = select i1 %nan, i32 %quiet, i32 %rounded
              %t = trunc i32 %s to i16
              %r = bitcast i16 %t to bfloat
              ret bfloat %r
            }
            """;

    /**
     * double to bfloat: to float rounded to odd (toward zero, the last bit set when inexact), which keeps
     * the float's rounding to bfloat exact, then as {@code __truncsfbf2}.
     */
    private static final String TRUNC_DF_BF = """
            declare double @llvm.fabs.f64(double)
            define hidden bfloat @__truncdfbf2(double %x) {
            entry:
              %t = fptrunc double %x to float
              %back = fpext float %t to double
              %exact = fcmp ueq double %back, %x
              br i1 %exact, label %done, label %odd
            odd:
              %tb = bitcast float %t to i32
              %ax = call double @llvm.fabs.f64(double %x)
              %ab = call double @llvm.fabs.f64(double %back)
              %away = fcmp ogt double %ab, %ax
              %dec = sub i32 %tb, 1
              %tz = select i1 %away, i32 %dec, i32 %tb
              %o = or i32 %tz, 1
              %of = bitcast i32 %o to float
              br label %done
            done:
              %v = phi float [ %t, %entry ], [ %of, %odd ]
              %r = call bfloat @__truncsfbf2(float %v)
              ret bfloat %r
            }
            """;

    /**
     * Adds to {@code module} (optimised, about to be compiled) the helpers its conversions may need: the back
     * end keeps an internal function it does not see called, and its own calls bind to it.
     */
    static void add(LLVMModuleRef module, LLVMContextRef ctx, Operation where) {
        Set<String> needed = new LinkedHashSet<>();
        for (LLVMValueRef f = LLVMGetFirstFunction(module); f != null && !f.isNull(); f = LLVMGetNextFunction(f)) {
            for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b != null && !b.isNull(); b = LLVMGetNextBasicBlock(b)) {
                for (LLVMValueRef i = LLVMGetFirstInstruction(b); i != null && !i.isNull(); i = LLVMGetNextInstruction(i)) {
                    int op = LLVMGetInstructionOpcode(i);
                    // (An extension from bf16 is a shift, which the back end writes inline.)
                    if (op == LLVMFPTrunc && isBf16(LLVMTypeOf(i))) {
                        needed.add(isDouble(LLVMTypeOf(LLVMGetOperand(i, 0))) ? "__truncdfbf2" : "__truncsfbf2");
                    }
                }
            }
        }
        if (needed.contains("__truncdfbf2")) {
            needed.add("__truncsfbf2");
        }
        needed.removeIf(name -> {
            LLVMValueRef own = LLVMGetNamedFunction(module, name);
            return own != null && !own.isNull();
        });
        if (needed.isEmpty()) {
            return;
        }
        StringBuilder ir = new StringBuilder();
        for (String name : needed) {
            ir.append(name.equals("__truncsfbf2") ? TRUNC_SF_BF : TRUNC_DF_BF);
        }
        link(module, ctx, ir.toString(), where);
        // Linked as external (the linker takes no unused internal function), then the module's own.
        for (String name : needed) {
            LLVMSetLinkage(LLVMGetNamedFunction(module, name), LLVMInternalLinkage);
        }
    }

    private static boolean isBf16(LLVMTypeRef t) {
        return scalar(t) == LLVMBFloatTypeKind;
    }

    private static boolean isDouble(LLVMTypeRef t) {
        return scalar(t) == LLVMDoubleTypeKind;
    }

    private static int scalar(LLVMTypeRef t) {
        int kind = LLVMGetTypeKind(t);
        return kind == LLVMVectorTypeKind || kind == LLVMScalableVectorTypeKind ? LLVMGetTypeKind(LLVMGetElementType(t))
                : kind;
    }

    /** Parses {@code ir} and links it into {@code module}. */
    private static void link(LLVMModuleRef module, LLVMContextRef ctx, String ir, Operation where) {
        byte[] text = ir.getBytes(StandardCharsets.UTF_8);
        LLVMModuleRef helpers = new LLVMModuleRef();
        BytePointer err = new BytePointer((Pointer) null);
        LLVMMemoryBufferRef buf;
        try (BytePointer data = new BytePointer(text.length); BytePointer name = new BytePointer("mgpu-cpu-builtins")) {
            data.put(text);
            buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(data, text.length, name);
        }
        if (LLVMParseIRInContext(ctx, buf, helpers, err) != 0) {
            String m = err.getString();
            LLVMDisposeMessage(err);
            throw new IllegalStateException("the CPU's conversion helpers do not parse: " + m);
        }
        LLVMSetTarget(helpers, LLVMGetTarget(module));
        LLVMSetDataLayout(helpers, LLVMGetDataLayoutStr(module));
        if (LLVMLinkModules2(module, helpers) != 0) {
            throw new MgpuException(where.knownLocation(), "Invalid kernel module for #cpu.target (must link with"
                    + " the conversion helpers)");
        }
    }

    private static final Pattern UNDEFINED = Pattern.compile("undefined reference to `([^']+)'|undefined symbol: (\\S+)");

    /**
     * The symbols that the linker's {@code log} reports as undefined, or an empty set when it failed for
     * another reason.
     */
    static Set<String> undefined(String log) {
        Set<String> names = new LinkedHashSet<>();
        Matcher m = UNDEFINED.matcher(log);
        while (m.find()) {
            names.add(m.group(1) != null ? m.group(1) : m.group(2));
        }
        return names;
    }
}
