package dev.mgpu.dialect;

import dev.mgpu.dialect.gpu.AllocOp;
import dev.mgpu.dialect.gpu.BinaryOp;
import dev.mgpu.dialect.gpu.DeallocOp;
import dev.mgpu.dialect.gpu.LaunchFuncOp;
import dev.mgpu.dialect.gpu.MemcpyOp;
import dev.mgpu.dialect.gpu.MemsetOp;
import dev.mgpu.dialect.gpu.ObjectAttr;
import dev.mgpu.dialect.gpu.OffloadingHandlerAttr;
import dev.mgpu.dialect.gpu.WaitOp;
import dev.mgpu.dialect.gpu.HostRegisterOp;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Block;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds ops of every dialect of the subset at the end of a block, for Java code generators. Each method
 * appends one op at the current location and returns its result (or the op when it has none, or
 * several). The module built this way is checked by the verifier like parsed input.
 *
 * <pre>{@code
 * Builtin.ModuleOp m = Builtin.ModuleOp.create(loc);
 * m.setGpuContainer();
 * OpBuilder b = OpBuilder.atEnd(m.body(), loc);
 * b.binary("kernels", null, List.of(Attribute.ObjectAttr.of(GpuTarget.NVVMTarget.of("sm_90"), cubin)));
 * Func.FuncOp f = b.func("main", new Type.FunctionType(List.of(), List.of()));
 * OpBuilder body = OpBuilder.atEnd(f.body(), loc);
 * Value one = body.constant(1, Type.INDEX);
 * body.launch("kernels", "axpy", new Value[] {one, one, one}, new Value[] {one, one, one}, List.of());
 * body.funcReturn(List.of());
 * }</pre>
 */
public final class OpBuilder {
    private final Block block;
    private Location location;

    private OpBuilder(Block block, Location location) {
        this.block = block;
        this.location = location;
    }

    /** A builder that appends to {@code block}, giving new ops {@code location}. */
    public static OpBuilder atEnd(Block block, Location location) {
        return new OpBuilder(block, location);
    }

    /** Sets the location of the ops built from now on. */
    public OpBuilder at(Location loc) {
        this.location = loc;
        return this;
    }

    public Block block() {
        return block;
    }

    /** Appends any op built elsewhere. */
    public Operation append(Operation op) {
        return block.append(op);
    }

    private Operation add(String name, List<Value> operands, List<Type> results, Map<String, Attribute> attrs) {
        return block.append(Operation.create(name, location, operands, results, attrs));
    }

    // ------------------------------------------------------------------ func

    /** {@code func.func} with an entry block whose arguments match the type's inputs. */
    public Func.FuncOp func(String name, Type.FunctionType type) {
        Func.FuncOp f = Func.FuncOp.create(location, name, type);
        block.append(f.op());
        return f;
    }

    public Operation funcReturn(List<Value> values) {
        return block.append(Func.ReturnOp.create(location, values).op());
    }

    public Operation call(String callee, List<Value> args, List<Type> results) {
        return block.append(Func.CallOp.create(location, callee, args, results).op());
    }

    // ------------------------------------------------------------------ arith

    public Value constant(long value, Type type) {
        return block.append(Arith.ConstantOp.integer(location, value, type).op()).result();
    }

    public Value constant(double value, Type.FloatType type) {
        return block.append(Arith.ConstantOp.floating(location, value, type).op()).result();
    }

    /** {@code arith.<kind>}, e.g. {@code addi}, {@code muli}, {@code addf}. */
    public Value arith(String kind, Value a, Value b) {
        return block.append(Arith.binary(location, kind, a, b)).result();
    }

    public Value cmpi(String predicate, Value a, Value b) {
        return block.append(Arith.cmpi(location, predicate, a, b)).result();
    }

    /** {@code arith.<kind>} cast, e.g. {@code index_cast}, {@code extsi}. */
    public Value cast(String kind, Value a, Type to) {
        return block.append(Arith.cast(location, kind, a, to)).result();
    }

    public Value select(Value cond, Value a, Value b) {
        return add("arith.select", List.of(cond, a, b), List.of(a.type()), Map.of()).result();
    }

    // ------------------------------------------------------------------ cf / llvm control flow

    public Operation br(Block dest, List<Value> args) {
        return block.append(Cf.br(location, Cf.BR, dest, args));
    }

    public Operation condBr(Value cond, Block t, List<Value> tArgs, Block f, List<Value> fArgs) {
        return block.append(Cf.condBr(location, Cf.COND_BR, cond, t, tArgs, f, fArgs));
    }

    // ------------------------------------------------------------------ llvm

    /** {@code llvm.func}; a declaration when {@code withBody} is false. */
    public LLVM.FuncOp llvmFunc(String name, Type.FunctionType type, boolean withBody) {
        Map<String, Attribute> attrs = new LinkedHashMap<>();
        attrs.put("sym_name", Attribute.StringAttr.of(name));
        attrs.put("function_type", new Attribute.TypeAttr(type));
        Operation op = Operation.create(LLVM.FUNC, location, List.of(), List.of(), attrs, 1, List.of());
        if (withBody) {
            Block entry = op.region(0).append(new Block(location));
            for (Type t : type.inputs()) {
                entry.addArgument(t, location);
            }
        }
        block.append(op);
        return new LLVM.FuncOp(op);
    }

    public Operation llvmReturn(List<Value> values) {
        return add(LLVM.RETURN, values, List.of(), Map.of());
    }

    public Operation llvmCall(String callee, List<Value> args, List<Type> results) {
        return add(LLVM.CALL, args, results, Map.of("callee", Attribute.SymbolRefAttr.of(callee)));
    }

    public Value llvmConstant(long value, Type.IntegerType type) {
        return add(LLVM.CONSTANT, List.of(), List.of(type), Map.of("value", new Attribute.IntegerAttr(value, type)))
                .result();
    }

    public Value llvmZero(Type type) {
        return add(LLVM.ZERO, List.of(), List.of(type), Map.of()).result();
    }

    /** {@code llvm.<kind>} integer or float arithmetic, e.g. {@code add}, {@code fmul}. */
    public Value llvmArith(String kind, Value a, Value b) {
        return add("llvm." + kind, List.of(a, b), List.of(a.type()), Map.of()).result();
    }

    public Value icmp(String predicate, Value a, Value b) {
        int p = Arith.PREDICATES.indexOf(predicate);
        if (p < 0) {
            throw new IllegalArgumentException("Invalid predicate (must be one of " + Arith.PREDICATES + "): "
                    + predicate);
        }
        return add(LLVM.ICMP, List.of(a, b), List.of(Type.I1), Map.of("predicate", Attribute.IntegerAttr.i64(p)))
                .result();
    }

    public Value alloca(Value count, Type element, int alignment) {
        Map<String, Attribute> attrs = new LinkedHashMap<>();
        attrs.put("elem_type", new Attribute.TypeAttr(element));
        if (alignment > 0) {
            attrs.put("alignment", Attribute.IntegerAttr.i64(alignment));
        }
        return add(LLVM.ALLOCA, List.of(count), List.of(Type.PTR), attrs).result();
    }

    public Value load(Value address, Type type) {
        return add(LLVM.LOAD, List.of(address), List.of(type), Map.of()).result();
    }

    public Operation store(Value value, Value address) {
        return add(LLVM.STORE, List.of(value, address), List.of(), Map.of());
    }

    /**
     * {@code llvm.getelementptr}: {@code indices} holds {@code Long} constants and {@code Value}s, in order.
     */
    public Value gep(Value base, Type element, List<Object> indices, boolean inbounds) {
        List<Value> ops = new ArrayList<>();
        ops.add(base);
        long[] raw = new long[indices.size()];
        for (int i = 0; i < raw.length; i++) {
            Object x = indices.get(i);
            if (x instanceof Value v) {
                ops.add(v);
                raw[i] = LLVM.DYNAMIC_INDEX;
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
        return add(LLVM.GEP, ops, List.of(base.type()), attrs).result();
    }

    // ------------------------------------------------------------------ gpu

    /** {@code gpu.binary}; the default handler when {@code handler} is null. */
    public BinaryOp binary(String name, OffloadingHandlerAttr handler, List<ObjectAttr> objects) {
        return append(BinaryOp.create(location, name, handler, objects));
    }

    /** A synchronous {@code gpu.launch_func @binary::@kernel}. */
    public LaunchFuncOp launch(String binary, String kernel, Value[] grid, Value[] block, List<Value> args) {
        return launch(binary, kernel, List.of(), false, grid, block, null, null, args, null);
    }

    /** Any {@code gpu.launch_func}; {@code cluster}, {@code smem} and {@code stream} may be null. */
    public LaunchFuncOp launch(String binary, String kernel, List<Value> deps, boolean async, Value[] grid,
            Value[] blockSize, Value[] cluster, Value smem, List<Value> args, Value stream) {
        return append(LaunchFuncOp.create(location, Attribute.SymbolRefAttr.of(binary, kernel), deps, async, grid,
                blockSize, cluster, smem, args, stream));
    }

    /** {@code gpu.wait}: returns the new token when {@code async}, else null. */
    public Value await(List<Value> deps, boolean async) {
        return append(WaitOp.create(location, deps, async)).asyncToken();
    }

    /** {@code gpu.alloc}: the memref is result 0, the token (when async) result 1. */
    public AllocOp alloc(Type.MemRefType type, List<Value> deps, boolean async, List<Value> dynamicSizes,
            boolean hostShared) {
        return append(AllocOp.create(location, deps, async, hostShared, type, dynamicSizes));
    }

    /** {@code gpu.dealloc}: returns the token when async. */
    public Value dealloc(Value memref, List<Value> deps, boolean async) {
        return append(DeallocOp.create(location, deps, async, memref)).asyncToken();
    }

    /** {@code gpu.memcpy dst, src}: returns the token when async. */
    public Value memcpy(Value dst, Value src, List<Value> deps, boolean async) {
        return append(MemcpyOp.create(location, deps, async, dst, src)).asyncToken();
    }

    /** {@code gpu.memset dst, value}: returns the token when async. */
    public Value memset(Value dst, Value value, List<Value> deps, boolean async) {
        return append(MemsetOp.create(location, deps, async, dst, value)).asyncToken();
    }

    /** {@code gpu.host_register}. */
    public Operation hostRegister(Value unrankedMemref) {
        return append(HostRegisterOp.create(location, unrankedMemref)).op();
    }

    private <T extends OpView> T append(T view) {
        block.append(view.op());
        return view;
    }
}
