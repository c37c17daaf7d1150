package dev.mgpu.dialect;

import dev.mgpu.dialect.arith.Arith;
import dev.mgpu.dialect.arith.Casts;
import dev.mgpu.dialect.arith.Comparisons;
import dev.mgpu.dialect.cf.Cf;
import dev.mgpu.dialect.func.Func;
import dev.mgpu.dialect.llvm.LLVM;
import dev.mgpu.dialect.llvm.LLVMArithOps;
import dev.mgpu.dialect.llvm.LLVMFunctionOps;
import dev.mgpu.dialect.llvm.LLVMMemoryOps;
import dev.mgpu.op.OpView;

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
 * several). The module built this way is checked by the verifier like parsed input. The bodies of kernels
 * are built with {@link KernelBuilder}.
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

    /**
     * A builder that appends to {@code block}, giving new ops {@code location}.
     *
     * @param block the block to append to
     * @param location the location of the ops built
     * @return the builder
     */
    public static OpBuilder atEnd(Block block, Location location) {
        return new OpBuilder(block, location);
    }

    /**
     * Sets the location of the ops built from now on.
     *
     * @param loc the location
     * @return this builder
     */
    public OpBuilder at(Location loc) {
        this.location = loc;
        return this;
    }

    /**
     * The block this builder appends to.
     *
     * @return the block
     */
    public Block block() {
        return block;
    }

    /**
     * Appends any op built elsewhere.
     *
     * @param op the detached op
     * @return {@code op}
     * @throws IllegalStateException if {@code op} already belongs to a block
     */
    public Operation append(Operation op) {
        return block.append(op);
    }

    // ------------------------------------------------------------------ func

    /**
     * {@code func.func} with an entry block whose arguments match the type's inputs.
     *
     * @param name the function's symbol name
     * @param type the function's type
     * @return the function
     */
    public Func.FuncOp func(String name, Type.FunctionType type) {
        Func.FuncOp f = Func.FuncOp.create(location, name, type);
        block.append(f.op());
        return f;
    }

    /**
     * {@code func.return}.
     *
     * @param values the values returned
     * @return the op
     */
    public Operation funcReturn(List<Value> values) {
        return block.append(Func.ReturnOp.create(location, values).op());
    }

    /**
     * {@code func.call}.
     *
     * @param callee the called function's symbol name
     * @param args the arguments
     * @param results the result types
     * @return the op
     */
    public Operation call(String callee, List<Value> args, List<Type> results) {
        return block.append(Func.CallOp.create(location, callee, args, results).op());
    }

    // ------------------------------------------------------------------ arith

    /**
     * {@code arith.constant} of an integer or index.
     *
     * @param value the value
     * @param type the integer or index type
     * @return the constant
     */
    public Value constant(long value, Type type) {
        return block.append(Arith.ConstantOp.integer(location, value, type).op()).result();
    }

    /**
     * {@code arith.constant} of a float.
     *
     * @param value the value
     * @param type the float type
     * @return the constant
     */
    public Value constant(double value, Type.FloatType type) {
        return block.append(Arith.ConstantOp.floating(location, value, type).op()).result();
    }

    /**
     * {@code arith.<kind>}, e.g. {@code addi}, {@code muli}, {@code addf}.
     *
     * @param kind the op's name after {@code arith.}, one of {@link Arith.BinaryOp#INTEGER_KINDS} or
     *         {@link Arith.BinaryOp#FLOAT_KINDS}
     * @param a the left operand
     * @param b the right operand, of the left operand's type
     * @return the result, of the operands' type
     * @throws IllegalArgumentException if {@code kind} is not a binary op
     */
    public Value arith(String kind, Value a, Value b) {
        return append(Arith.BinaryOp.create(location, kind, a, b)).op().result();
    }

    /**
     * {@code arith.cmpi}.
     *
     * @param predicate the predicate's name, one of {@link Comparisons.CmpIOp#PREDICATES}
     * @param a the left operand
     * @param b the right operand
     * @return the {@code i1} result
     * @throws IllegalArgumentException if {@code predicate} is not one of the predicates
     */
    public Value cmpi(String predicate, Value a, Value b) {
        return append(Comparisons.CmpIOp.create(location, predicate, a, b)).op().result();
    }

    /**
     * {@code arith.<kind>} cast, e.g. {@code index_cast}, {@code extsi}.
     *
     * @param kind the op's name after {@code arith.}, one of {@link Casts.CastOp#KINDS}
     * @param a the value to convert
     * @param to the result type
     * @return the result
     * @throws IllegalArgumentException if {@code kind} is not a cast
     */
    public Value cast(String kind, Value a, Type to) {
        return append(Casts.CastOp.create(location, kind, a, to)).op().result();
    }

    /**
     * {@code arith.select}.
     *
     * @param cond the {@code i1} condition
     * @param a the value when the condition holds
     * @param b the value otherwise
     * @return the result, of {@code a}'s type
     */
    public Value select(Value cond, Value a, Value b) {
        return append(Comparisons.SelectOp.create(location, cond, a, b)).op().result();
    }

    // ------------------------------------------------------------------ cf / llvm control flow

    /**
     * {@code cf.br}.
     *
     * @param dest the destination block
     * @param args the destination's block arguments
     * @return the op
     */
    public Operation br(Block dest, List<Value> args) {
        return append(Cf.BrOp.create(location, Cf.BrOp.NAME, dest, args)).op();
    }

    /**
     * {@code cf.cond_br}.
     *
     * @param cond the {@code i1} condition
     * @param t the destination when the condition holds
     * @param tArgs the block arguments for {@code t}
     * @param f the destination otherwise
     * @param fArgs the block arguments for {@code f}
     * @return the op
     */
    public Operation condBr(Value cond, Block t, List<Value> tArgs, Block f, List<Value> fArgs) {
        return append(Cf.CondBrOp.create(location, Cf.CondBrOp.NAME, cond, t, tArgs, f, fArgs)).op();
    }

    // ------------------------------------------------------------------ llvm

    /**
     * {@code llvm.func}; a declaration when {@code withBody} is false.
     *
     * @param name the function's symbol name
     * @param type the function's type
     * @param withBody whether to give the function an entry block
     * @return the function
     */
    public LLVMFunctionOps.FuncOp llvmFunc(String name, Type.FunctionType type, boolean withBody) {
        return append(LLVMFunctionOps.FuncOp.create(location, name, type, withBody));
    }

    /**
     * {@code llvm.return}.
     *
     * @param values the values returned
     * @return the op
     */
    public Operation llvmReturn(List<Value> values) {
        return append(LLVMFunctionOps.ReturnOp.create(location, values)).op();
    }

    /**
     * {@code llvm.call}.
     *
     * @param callee the called function's symbol name
     * @param args the arguments
     * @param results the result types
     * @return the op
     */
    public Operation llvmCall(String callee, List<Value> args, List<Type> results) {
        return append(LLVMFunctionOps.CallOp.create(location, callee, args, results)).op();
    }

    /**
     * {@code llvm.mlir.constant}.
     *
     * @param value the value
     * @param type the integer type
     * @return the constant
     */
    public Value llvmConstant(long value, Type.IntegerType type) {
        return append(LLVM.ConstantOp.create(location, value, type)).op().result();
    }

    /**
     * {@code llvm.mlir.zero}.
     *
     * @param type the type of the zero value
     * @return the zero value
     */
    public Value llvmZero(Type type) {
        return append(LLVM.ZeroOp.create(location, type)).op().result();
    }

    /**
     * {@code llvm.<kind>} integer or float arithmetic, e.g. {@code add}, {@code fmul}.
     *
     * @param kind the op's name after {@code llvm.}, one of {@link LLVMArithOps.BinaryOp#INTEGER_KINDS} or
     *         {@link LLVMArithOps.BinaryOp#FLOAT_KINDS}
     * @param a the left operand
     * @param b the right operand, of the left operand's type
     * @return the result, of the operands' type
     * @throws IllegalArgumentException if {@code kind} is not a binary op
     */
    public Value llvmArith(String kind, Value a, Value b) {
        return append(LLVMArithOps.BinaryOp.create(location, kind, a, b)).result();
    }

    /**
     * {@code llvm.icmp}.
     *
     * @param predicate the predicate's name, one of {@link Comparisons.CmpIOp#PREDICATES}
     * @param a the left operand
     * @param b the right operand
     * @return the {@code i1} result
     * @throws IllegalArgumentException if {@code predicate} is not one of the predicates
     */
    public Value icmp(String predicate, Value a, Value b) {
        return append(LLVMArithOps.ICmpOp.create(location, predicate, a, b)).op().result();
    }

    /**
     * {@code llvm.alloca}; {@code alignment} 0 leaves it to LLVM.
     *
     * @param count the number of elements, an integer
     * @param element the element type
     * @param alignment the alignment in bytes, or 0
     * @return the pointer to the allocation
     */
    public Value alloca(Value count, Type element, int alignment) {
        return append(LLVMMemoryOps.AllocaOp.create(location, count, element, alignment)).op().result();
    }

    /**
     * {@code llvm.load}.
     *
     * @param address the pointer to load from
     * @param type the type loaded
     * @return the loaded value
     */
    public Value load(Value address, Type type) {
        return append(LLVMMemoryOps.LoadOp.create(location, address, type)).op().result();
    }

    /**
     * {@code llvm.store}.
     *
     * @param value the value to store
     * @param address the pointer to store to
     * @return the op
     */
    public Operation store(Value value, Value address) {
        return append(LLVMMemoryOps.StoreOp.create(location, value, address)).op();
    }

    /**
     * {@code llvm.getelementptr}: {@code indices} holds {@code Long} constants and {@code Value}s, in order.
     *
     * @param base the base pointer
     * @param element the element type the indices step through
     * @param indices the indices, each a {@code Long} or a {@code Value}
     * @param inbounds whether the address stays within the allocation
     * @return the computed pointer
     */
    public Value gep(Value base, Type element, List<Object> indices, boolean inbounds) {
        return append(LLVMMemoryOps.GEPOp.create(location, base, element, indices, inbounds)).op().result();
    }

    // ------------------------------------------------------------------ gpu

    /**
     * {@code gpu.binary}; the default handler when {@code handler} is null.
     *
     * @param name the binary's symbol name
     * @param handler the offloading handler, or null
     * @param objects the binary's objects
     * @return the binary
     */
    public BinaryOp binary(String name, OffloadingHandlerAttr handler, List<ObjectAttr> objects) {
        return append(BinaryOp.create(location, name, handler, objects));
    }

    /**
     * A synchronous {@code gpu.launch_func @binary::@kernel}.
     *
     * @param binary the binary's symbol name
     * @param kernel the kernel's name in the binary
     * @param grid the grid size, x, y and z, integers or indices of one type
     * @param block the block size, x, y and z, of the grid sizes' type
     * @param args the kernel arguments
     * @return the launch
     */
    public LaunchFuncOp launch(String binary, String kernel, Value[] grid, Value[] block, List<Value> args) {
        return launch(binary, kernel, List.of(), false, grid, block, null, null, args, null);
    }

    /**
     * Any {@code gpu.launch_func}; {@code cluster}, {@code smem} and {@code stream} may be null.
     *
     * @param binary the binary's symbol name
     * @param kernel the kernel's name in the binary
     * @param deps the async tokens to wait for
     * @param async whether the launch returns an async token
     * @param grid the grid size, x, y and z
     * @param blockSize the block size, x, y and z
     * @param cluster the cluster size, x, y and z, or null
     * @param smem the dynamic shared memory size, an {@code i32}, or null
     * @param args the kernel arguments
     * @param stream the stream to launch on, or null
     * @return the launch
     */
    public LaunchFuncOp launch(String binary, String kernel, List<Value> deps, boolean async, Value[] grid,
            Value[] blockSize, Value[] cluster, Value smem, List<Value> args, Value stream) {
        return append(LaunchFuncOp.create(location, Attribute.SymbolRefAttr.of(binary, kernel), deps, async, grid,
                blockSize, cluster, smem, args, stream));
    }

    /**
     * {@code gpu.wait}: returns the new token when {@code async}, else null.
     *
     * @param deps the async tokens to wait for
     * @param async whether to return a new token rather than block
     * @return the new token, or null
     */
    public Value await(List<Value> deps, boolean async) {
        return append(WaitOp.create(location, deps, async)).asyncToken();
    }

    /**
     * {@code gpu.alloc}: the memref is result 0, the token (when async) result 1.
     *
     * @param type the memref type to allocate
     * @param deps the async tokens to wait for
     * @param async whether the op returns an async token
     * @param dynamicSizes the sizes of the dynamic dimensions, in order
     * @param hostShared whether the memory is shared with the host
     * @return the op
     */
    public AllocOp alloc(Type.MemRefType type, List<Value> deps, boolean async, List<Value> dynamicSizes,
            boolean hostShared) {
        return append(AllocOp.create(location, deps, async, hostShared, type, dynamicSizes));
    }

    /**
     * {@code gpu.dealloc}: returns the token when async.
     *
     * @param memref the memref to free
     * @param deps the async tokens to wait for
     * @param async whether the op returns an async token
     * @return the token, or null
     */
    public Value dealloc(Value memref, List<Value> deps, boolean async) {
        return append(DeallocOp.create(location, deps, async, memref)).asyncToken();
    }

    /**
     * {@code gpu.memcpy dst, src}: returns the token when async.
     *
     * @param dst the destination memref
     * @param src the source memref
     * @param deps the async tokens to wait for
     * @param async whether the op returns an async token
     * @return the token, or null
     */
    public Value memcpy(Value dst, Value src, List<Value> deps, boolean async) {
        return append(MemcpyOp.create(location, deps, async, dst, src)).asyncToken();
    }

    /**
     * {@code gpu.memset dst, value}: returns the token when async.
     *
     * @param dst the memref to fill
     * @param value the value to fill it with
     * @param deps the async tokens to wait for
     * @param async whether the op returns an async token
     * @return the token, or null
     */
    public Value memset(Value dst, Value value, List<Value> deps, boolean async) {
        return append(MemsetOp.create(location, deps, async, dst, value)).asyncToken();
    }

    /**
     * {@code gpu.host_register}.
     *
     * @param unrankedMemref the unranked memref to register with the device
     * @return the op
     */
    public Operation hostRegister(Value unrankedMemref) {
        return append(HostRegisterOp.create(location, unrankedMemref)).op();
    }

    private <T extends OpView> T append(T view) {
        block.append(view.op());
        return view;
    }
}
