package dev.mgpu.codegen.internal;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.mgpu.codegen.NativeBuilder;
import dev.mgpu.dialect.func.Func;
import dev.mgpu.dialect.llvm.LLVMFunctionOps;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.MgpuException;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.llvm.LLVM.LLVMBuilderRef;
import org.bytedeco.llvm.LLVM.LLVMContextRef;
import org.bytedeco.llvm.LLVM.LLVMModuleRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * A C {@code int main(int, char **)} that calls one function of the module and returns 0, as
 * {@code mlir-runner -e NAME --entry-point-result=void} runs a program. The function must take nothing and
 * return nothing. The module's own function {@code main}, the entry point or not, is renamed and made internal,
 * so that the C {@code main} can take its name.
 */
final class EntryPoint {
    private EntryPoint() {
    }

    /** The model's function {@code name}, checked before any native call: defined, no arguments, no results. */
    static void check(Operation root, String name) {
        Operation found = null;
        for (Operation op : root.region(0).entry().operations()) {
            boolean func = op.name().equals(Func.FuncOp.NAME) || op.name().equals(LLVMFunctionOps.FuncOp.NAME);
            if (func && name.equals(op.symbolName())) {
                found = op;
            }
        }
        if (found != null) {
            Operation op = found;
            if (op.region(0).isEmpty()) {
                throw new MgpuException(op.location(), "Invalid entry point (must be a function defined in the module,"
                        + " not a declaration): @" + name);
            }
            Type.FunctionType ft = (Type.FunctionType) ((Attribute.TypeAttr) op.attr("function_type")).type();
            boolean voidResult = ft.results().isEmpty() || ft.results().size() == 1
                    && ft.results().get(0) instanceof Type.LLVMVoidType;
            if (!ft.inputs().isEmpty() || !voidResult) {
                throw new MgpuException(op.location(), "Invalid entry point (must take no arguments and return"
                        + " nothing, as --entry-point-result=void): @" + name + " : " + ft);
            }
            return;
        }
        throw new MgpuException(root.knownLocation(), "Invalid entry point (must name a function of the module): @"
                + name);
    }

    /** Adds {@code main}, which calls {@code name}; renames a function {@code main} first. */
    static void add(LLVMModuleRef module, String name) {
        LLVMValueRef fn = LLVMGetNamedFunction(module, name);
        LLVMContextRef ctx = LLVMGetModuleContext(module);
        LLVMValueRef clash = LLVMGetNamedFunction(module, "main");
        if (clash != null && !clash.isNull() && LLVMIsDeclaration(clash) == 0) {
            // LLVM makes the new name unique in the module if it is taken.
            LLVMSetValueName2(clash, "_mgpu_entry_main", "_mgpu_entry_main".length());
            LLVMSetLinkage(clash, LLVMInternalLinkage);
        }
        LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
        LLVMTypeRef mainType;
        try (PointerPointer<LLVMTypeRef> p = new PointerPointer<>(i32, LLVMPointerTypeInContext(ctx, 0))) {
            mainType = LLVMFunctionType(i32, p, 2, 0);
        }
        LLVMValueRef main = LLVMAddFunction(module, "main", mainType);
        try (NativeBuilder nb = new NativeBuilder(ctx)) {
            LLVMBuilderRef b = nb.get();
            LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, main, "entry"));
            try (PointerPointer<LLVMValueRef> none = new PointerPointer<>(0)) {
                LLVMBuildCall2(b, LLVMGlobalGetValueType(fn), fn, none, 0, "");
            }
            LLVMBuildRet(b, LLVMConstInt(i32, 0, 0));
        }
    }
}
