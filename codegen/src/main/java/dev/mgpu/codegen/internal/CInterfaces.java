package dev.mgpu.codegen.internal;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.mgpu.codegen.NativeBuilder;
import dev.mgpu.dialect.func.Func;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import java.util.ArrayList;
import java.util.List;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.llvm.LLVM.LLVMBuilderRef;
import org.bytedeco.llvm.LLVM.LLVMContextRef;
import org.bytedeco.llvm.LLVM.LLVMModuleRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * The C interfaces that {@code llvm.emit_c_interface} asks for on a host {@code func.func}, as upstream's
 * func-to-llvm lowering makes them: {@code _mlir_ciface_NAME} takes each memref as a pointer to its
 * descriptor (ranked or unranked), and a memref result, or several results, through a pointer in front.
 * A defined function gets that wrapper, which calls it; a declared one is defined as a call of the
 * {@code _mlir_ciface_} function that C provides.
 */
final class CInterfaces {
    static final String ATTR = "llvm.emit_c_interface";
    static final String PREFIX = "_mlir_ciface_";

    private CInterfaces() {
    }

    /** Adds the C interfaces of {@code root}'s functions to {@code module}, which holds their translations. */
    static void add(Operation root, LLVMModuleRef module) {
        if (root.region(0).entry().operations().stream().noneMatch(op -> op.hasAttr(ATTR))) {
            return;
        }
        LLVMContextRef ctx = LLVMGetModuleContext(module);
        try (NativeBuilder nb = new NativeBuilder(ctx)) {
            LLVMBuilderRef b = nb.get();
            for (Operation op : root.region(0).entry().operations()) {
                if (op.name().equals(Func.FuncOp.NAME) && op.hasAttr(ATTR)) {
                    LLVMValueRef fn = LLVMGetNamedFunction(module, op.symbolName());
                    if (fn != null && !fn.isNull()) {
                        wrap(op, fn, module, ctx, b);
                    }
                }
            }
        }
    }

    /** One MLIR argument's place among the expanded parameters, and its descriptor type when it is a memref. */
    private record Group(int first, int count, LLVMTypeRef descriptor) {
    }

    private static void wrap(Operation op, LLVMValueRef fn, LLVMModuleRef module, LLVMContextRef ctx, LLVMBuilderRef b) {
        Type.FunctionType ft = (Type.FunctionType) ((Attribute.TypeAttr) op.attr("function_type")).type();
        LLVMTypeRef fnType = LLVMGlobalGetValueType(fn);
        int n = LLVMCountParamTypes(fnType);
        LLVMTypeRef[] params = new LLVMTypeRef[n];
        try (PointerPointer<LLVMTypeRef> p = new PointerPointer<>(n)) {
            LLVMGetParamTypes(fnType, p);
            for (int i = 0; i < n; i++) {
                params[i] = p.get(LLVMTypeRef.class, i);
            }
        }
        List<Group> groups = new ArrayList<>();
        int at = 0;
        for (Type t : ft.inputs()) {
            int count = t instanceof Type.MemRefType m ? 3 + 2 * m.rank() : t instanceof Type.UnrankedMemRefType ? 2 : 1;
            boolean memref = t instanceof Type.MemRefType || t instanceof Type.UnrankedMemRefType;
            LLVMTypeRef desc = memref ? descriptor(ctx, params, at, t) : null;
            groups.add(new Group(at, count, desc));
            at += count;
        }
        LLVMTypeRef ret = LLVMGetReturnType(fnType);
        boolean resultThroughPointer = ft.results().size() > 1 || ft.results().size() == 1
                && (ft.results().get(0) instanceof Type.MemRefType || ft.results().get(0) instanceof Type.UnrankedMemRefType);
        LLVMTypeRef ptr = LLVMPointerTypeInContext(ctx, 0);
        List<LLVMTypeRef> cParams = new ArrayList<>();
        if (resultThroughPointer) {
            cParams.add(ptr);
        }
        for (Group g : groups) {
            cParams.add(g.descriptor() != null ? ptr : params[g.first()]);
        }
        LLVMTypeRef cType = function(resultThroughPointer ? LLVMVoidTypeInContext(ctx) : ret, cParams);
        String cName = PREFIX + op.symbolName();
        if (LLVMIsDeclaration(fn) == 0) {
            // C calls the wrapper, which calls the function with each descriptor's fields.
            LLVMValueRef c = LLVMAddFunction(module, cName, cType);
            LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, c, "entry"));
            List<LLVMValueRef> args = new ArrayList<>();
            int k = resultThroughPointer ? 1 : 0;
            for (Group g : groups) {
                LLVMValueRef v = LLVMGetParam(c, k++);
                if (g.descriptor() == null) {
                    args.add(v);
                    continue;
                }
                LLVMValueRef d = LLVMBuildLoad2(b, g.descriptor(), v, "");
                args.addAll(flatten(b, d, g.descriptor()));
            }
            LLVMValueRef r = call(b, fnType, fn, args);
            if (resultThroughPointer) {
                LLVMBuildStore(b, r, LLVMGetParam(c, 0));
                LLVMBuildRetVoid(b);
            } else if (LLVMGetTypeKind(ret) == LLVMVoidTypeKind) {
                LLVMBuildRetVoid(b);
            } else {
                LLVMBuildRet(b, r);
            }
            return;
        }
        // A declaration: its body calls the C function with pointers to descriptors on the stack.
        LLVMValueRef c = LLVMGetNamedFunction(module, cName);
        if (c == null || c.isNull()) {
            c = LLVMAddFunction(module, cName, cType);
        }
        LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, fn, "entry"));
        LLVMSetLinkage(fn, LLVMInternalLinkage);
        List<LLVMValueRef> args = new ArrayList<>();
        LLVMValueRef result = null;
        if (resultThroughPointer) {
            result = LLVMBuildAlloca(b, ret, "");
            args.add(result);
        }
        for (Group g : groups) {
            if (g.descriptor() == null) {
                args.add(LLVMGetParam(fn, g.first()));
                continue;
            }
            LLVMValueRef d = LLVMGetUndef(g.descriptor());
            d = pack(b, d, g, fn);
            LLVMValueRef slot = LLVMBuildAlloca(b, g.descriptor(), "");
            LLVMBuildStore(b, d, slot);
            args.add(slot);
        }
        LLVMValueRef r = call(b, cType, c, args);
        if (resultThroughPointer) {
            LLVMBuildRet(b, LLVMBuildLoad2(b, ret, result, ""));
        } else if (LLVMGetTypeKind(ret) == LLVMVoidTypeKind) {
            LLVMBuildRetVoid(b);
        } else {
            LLVMBuildRet(b, r);
        }
    }

    /** The descriptor struct of an argument from its expanded parameters: {ptr, ptr, i, [r x i], [r x i]} or {i64, ptr}. */
    private static LLVMTypeRef descriptor(LLVMContextRef ctx, LLVMTypeRef[] params, int at, Type t) {
        if (t instanceof Type.MemRefType m) {
            List<LLVMTypeRef> fs = new ArrayList<>(List.of(params[at], params[at + 1], params[at + 2]));
            if (m.rank() > 0) {
                LLVMTypeRef arr = LLVMArrayType2(params[at + 2], m.rank());
                fs.add(arr);
                fs.add(arr);
            }
            return struct(ctx, fs);
        }
        return struct(ctx, List.of(params[at], params[at + 1]));
    }

    private static LLVMTypeRef struct(LLVMContextRef ctx, List<LLVMTypeRef> fs) {
        try (PointerPointer<LLVMTypeRef> p = new PointerPointer<>(fs.toArray(new LLVMTypeRef[0]))) {
            return LLVMStructTypeInContext(ctx, p, fs.size(), 0);
        }
    }

    private static LLVMTypeRef function(LLVMTypeRef ret, List<LLVMTypeRef> params) {
        try (PointerPointer<LLVMTypeRef> p = new PointerPointer<>(params.toArray(new LLVMTypeRef[0]))) {
            return LLVMFunctionType(ret, p, params.size(), 0);
        }
    }

    private static LLVMValueRef call(LLVMBuilderRef b, LLVMTypeRef type, LLVMValueRef fn, List<LLVMValueRef> args) {
        try (PointerPointer<LLVMValueRef> p = new PointerPointer<>(args.toArray(new LLVMValueRef[0]))) {
            return LLVMBuildCall2(b, type, fn, p, args.size(), "");
        }
    }

    /** The fields of descriptor {@code d}, in the order of the expanded parameters. */
    private static List<LLVMValueRef> flatten(LLVMBuilderRef b, LLVMValueRef d, LLVMTypeRef type) {
        List<LLVMValueRef> out = new ArrayList<>();
        int fields = LLVMCountStructElementTypes(type);
        for (int f = 0; f < fields; f++) {
            LLVMValueRef v = LLVMBuildExtractValue(b, d, f, "");
            LLVMTypeRef ft = LLVMStructGetTypeAtIndex(type, f);
            if (LLVMGetTypeKind(ft) == LLVMArrayTypeKind) {
                for (int i = 0; i < LLVMGetArrayLength2(ft); i++) {
                    out.add(LLVMBuildExtractValue(b, v, i, ""));
                }
            } else {
                out.add(v);
            }
        }
        return out;
    }

    /** {@code d} with group {@code g}'s parameters of {@code fn} inserted, field by field. */
    private static LLVMValueRef pack(LLVMBuilderRef b, LLVMValueRef d, Group g, LLVMValueRef fn) {
        int k = g.first();
        int fields = LLVMCountStructElementTypes(g.descriptor());
        for (int f = 0; f < fields; f++) {
            LLVMTypeRef ft = LLVMStructGetTypeAtIndex(g.descriptor(), f);
            if (LLVMGetTypeKind(ft) == LLVMArrayTypeKind) {
                LLVMValueRef arr = LLVMGetUndef(ft);
                for (int i = 0; i < LLVMGetArrayLength2(ft); i++) {
                    arr = LLVMBuildInsertValue(b, arr, LLVMGetParam(fn, k++), i, "");
                }
                d = LLVMBuildInsertValue(b, d, arr, f, "");
            } else {
                d = LLVMBuildInsertValue(b, d, LLVMGetParam(fn, k++), f, "");
            }
        }
        return d;
    }
}
