package dev.mgpu.codegen.internal.translate;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.bytedeco.llvm.LLVM.LLVMBuilderRef;
import org.bytedeco.llvm.LLVM.LLVMContextRef;
import org.bytedeco.llvm.LLVM.LLVMDIBuilderRef;
import org.bytedeco.llvm.LLVM.LLVMMetadataRef;
import org.bytedeco.llvm.LLVM.LLVMModuleRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * DWARF line tables for host code, from the MLIR locations ({@code -g}): one compile unit for the input
 * file, a subprogram per function with a body, and each instruction at the line and column of the op it
 * came from (an op without a location of its own takes its function's). A debugger then steps through
 * the {@code .mlir} file. Launch stubs and handle getters have no subprogram: they are the runtime's side
 * of a launch, as a C library's code is, and a debugger steps over them.
 */
public final class DebugInfo implements AutoCloseable {
    private final LLVMModuleRef module;
    private final LLVMContextRef ctx;
    private final LLVMDIBuilderRef di;
    private final Map<String, LLVMMetadataRef> files = new HashMap<>();
    private LLVMMetadataRef unit;
    private LLVMMetadataRef subroutine;
    private LLVMMetadataRef scope;
    private Location.FileLineCol fallback;

    public DebugInfo(LLVMModuleRef module, Location where) {
        this.module = module;
        this.ctx = LLVMGetModuleContext(module);
        this.di = LLVMCreateDIBuilder(module);
        Location.FileLineCol f = fileLineCol(where);
        LLVMMetadataRef file = file(f != null ? f.file() : "<unknown>");
        String producer = "mgpu gpu-translate";
        unit = LLVMDIBuilderCreateCompileUnit(di, LLVMDWARFSourceLanguageC, file, producer, producer.length(), 0,
                "", 0, 0, "", 0, LLVMDWARFEmissionFull, 0, 0, 0, "", 0, "", 0);
        subroutine = LLVMDIBuilderCreateSubroutineType(di, file, (org.bytedeco.javacpp.PointerPointer<?>) null, 0, 0);
    }

    private LLVMMetadataRef file(String name) {
        return files.computeIfAbsent(name, n -> {
            Path p = Path.of(n).toAbsolutePath().normalize();
            String base = p.getFileName() == null ? n : p.getFileName().toString();
            String dir = p.getParent() == null ? "" : p.getParent().toString();
            return LLVMDIBuilderCreateFile(di, base, base.length(), dir, dir.length());
        });
    }

    /** The file, line and column a location names, looking through names and call sites, or null. */
    public static Location.FileLineCol fileLineCol(Location l) {
        if (l instanceof Location.FileLineCol f && f.line() > 0) {
            return f;
        }
        if (l instanceof Location.Named n) {
            return fileLineCol(n.child());
        }
        return null;
    }

    /** Gives {@code fn}, defined by {@code fnOp}, a subprogram, and makes it the scope of what follows. */
    public void beginFunction(LLVMValueRef fn, Operation fnOp, LLVMBuilderRef builder) {
        Location.FileLineCol f = fileLineCol(fnOp.knownLocation());
        fallback = f != null ? f : new Location.FileLineCol("<unknown>", 1, 1);
        String name = fnOp.symbolName();
        LLVMMetadataRef file = file(fallback.file());
        scope = LLVMDIBuilderCreateFunction(di, file, name, name.length(), name, name.length(), file,
                fallback.line(), subroutine, LLVMGetLinkage(fn) == LLVMInternalLinkage
                        || LLVMGetLinkage(fn) == LLVMPrivateLinkage ? 1 : 0, 1, fallback.line(), 0, 0);
        LLVMSetSubprogram(fn, scope);
        at(fnOp, builder);
    }

    /**
     * {@link #beginFunction} on {@code lines}, when there are line tables.
     *
     * @param lines the line tables, or null without -g
     * @param fn the function a target builds itself
     * @param fnOp the op it is built for
     * @param builder the builder that builds it
     */
    public static void begin(DebugInfo lines, LLVMValueRef fn, Operation fnOp, LLVMBuilderRef builder) {
        if (lines != null) {
            lines.beginFunction(fn, fnOp, builder);
        }
    }

    /**
     * {@link #endFunction} on {@code lines}, when there are line tables.
     *
     * @param lines the line tables, or null without -g
     * @param builder the builder
     */
    public static void end(DebugInfo lines, LLVMBuilderRef builder) {
        if (lines != null) {
            lines.endFunction(builder);
        }
    }

    /**
     * Puts what {@code builder} builds next at {@code op}'s line and column, and returns the location it
     * had (null for none).
     */
    public LLVMMetadataRef at(Operation op, LLVMBuilderRef builder) {
        LLVMMetadataRef before = LLVMGetCurrentDebugLocation2(builder);
        if (scope == null) {
            // Outside a function of its own (a helper a target builds): the function gets its line later.
            return before;
        }
        Location.FileLineCol f = fileLineCol(op.location());
        if (f == null || !f.file().equals(fallback.file())) {
            f = fallback;
        }
        LLVMSetCurrentDebugLocation2(builder, LLVMDIBuilderCreateDebugLocation(ctx, f.line(), Math.max(0, f.column()),
                scope, null));
        return before;
    }

    /** Ends a function: what the builder builds next has no location. */
    public void endFunction(LLVMBuilderRef builder) {
        LLVMDIBuilderFinalizeSubprogram(di, scope);
        LLVMSetCurrentDebugLocation2(builder, null);
        scope = null;
    }

    /**
     * Runs {@code body} with line tables, given to {@code use} before and null after, when {@code on}; else
     * runs it alone.
     *
     * @param on whether to build line tables
     * @param module the module they describe
     * @param root the op whose location is the compile unit's file
     * @param use receives the line tables, then null
     * @param body the translation
     */
    public static void during(boolean on, LLVMModuleRef module, Operation root,
            java.util.function.Consumer<DebugInfo> use, Runnable body) {
        if (!on) {
            body.run();
            return;
        }
        try (DebugInfo di = new DebugInfo(module, root.knownLocation())) {
            use.accept(di);
            body.run();
            di.finish();
        } finally {
            use.accept(null);
        }
    }

    /**
     * {@link #describeTheRest(Operation, java.util.function.Function)} for a {@code gpu.module}: a function
     * the target added is named for the kernel or function it serves ({@code k}, {@code k.body},
     * {@code k.mgpu...}) and gets that one's line.
     *
     * @param gpuModule the {@code gpu.module}
     */
    public void describeTheRest(Operation gpuModule) {
        Map<String, Operation> named = new HashMap<>();
        for (Operation op : gpuModule.region(0).entry().operations()) {
            if (op.symbolName() != null && !op.regions().isEmpty()) {
                named.put(op.symbolName(), op);
            }
        }
        describeTheRest(gpuModule, name -> named.get(name.contains(".") ? name.substring(0, name.indexOf('.')) : name));
    }

    /**
     * Gives every function of the module that has a body and no subprogram (the entry points a target's
     * kernel ABI adds around the translated bodies) one, at {@code at}'s line, and that line to each of its
     * instructions without a location: a debugger then sees the kernel's own lines when the bodies are
     * inlined into them.
     *
     * @param at the op whose line the added functions have (the {@code gpu.module})
     * @param lineOf the op a function is named for, by LLVM name, or null for {@code at}
     */
    public void describeTheRest(Operation at, java.util.function.Function<String, Operation> lineOf) {
        for (LLVMValueRef fn = LLVMGetFirstFunction(module); fn != null && !fn.isNull(); fn = LLVMGetNextFunction(fn)) {
            if (LLVMIsDeclaration(fn) != 0 || LLVMGetSubprogram(fn) != null && !LLVMGetSubprogram(fn).isNull()) {
                continue;
            }
            String name = LLVMGetValueName(fn).getString();
            Operation op = lineOf.apply(name);
            Location.FileLineCol f = fileLineCol((op != null ? op : at).knownLocation());
            Location.FileLineCol line = f != null ? f : new Location.FileLineCol("<unknown>", 1, 1);
            LLVMMetadataRef file = file(line.file());
            LLVMMetadataRef sp = LLVMDIBuilderCreateFunction(di, file, name, name.length(), name, name.length(), file,
                    line.line(), subroutine, LLVMGetLinkage(fn) == LLVMInternalLinkage
                            || LLVMGetLinkage(fn) == LLVMPrivateLinkage ? 1 : 0, 1, line.line(), 0, 0);
            LLVMSetSubprogram(fn, sp);
            LLVMMetadataRef loc = LLVMDIBuilderCreateDebugLocation(ctx, line.line(), Math.max(0, line.column()), sp,
                    null);
            for (var b = LLVMGetFirstBasicBlock(fn); b != null && !b.isNull(); b = LLVMGetNextBasicBlock(b)) {
                for (var i = LLVMGetFirstInstruction(b); i != null && !i.isNull(); i = LLVMGetNextInstruction(i)) {
                    LLVMMetadataRef has = LLVMInstructionGetDebugLoc(i);
                    if (has == null || has.isNull()) {
                        LLVMInstructionSetDebugLoc(i, loc);
                    }
                }
            }
            LLVMDIBuilderFinalizeSubprogram(di, sp);
        }
    }

    /** Finishes the metadata and states the versions that LLVM and debuggers read. */
    public void finish() {
        LLVMDIBuilderFinalize(di);
        LLVMAddModuleFlag(module, LLVMModuleFlagBehaviorWarning, "Debug Info Version", 18,
                LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(ctx), LLVMDebugMetadataVersion(), 0)));
        LLVMAddModuleFlag(module, LLVMModuleFlagBehaviorWarning, "Dwarf Version", 13,
                LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(ctx), 5, 0)));
    }

    @Override
    public void close() {
        LLVMDisposeDIBuilder(di);
    }
}
