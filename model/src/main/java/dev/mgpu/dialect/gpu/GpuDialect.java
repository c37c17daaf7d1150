package dev.mgpu.dialect.gpu;

import dev.mgpu.dialect.builtin.Builtin;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Operation;
import dev.mgpu.op.AttrDef;
import dev.mgpu.op.OpDef;
import dev.mgpu.op.TypeDef;
import dev.mgpu.op.VerifyContext;
import dev.mgpu.ir.Type;
import java.util.List;

/**
 * The gpu dialect subset, with the target attributes of nvvm, rocdl and cpu: modules, binaries,
 * launches, memory and synchronisation. Each op is one class of this package; this class lists them.
 */
public final class GpuDialect {
    private GpuDialect() {
    }

    /**
     * Every op of the dialect.
     *
     * @return the definitions of the dialect's ops
     */
    public static List<OpDef> ops() {
        List<OpDef> defs = new java.util.ArrayList<>(List.of(GpuModuleOp.definition(), GpuFuncOp.definition(),
                GpuReturnOp.definition(), BinaryOp.definition(), LaunchFuncOp.definition(), AllocOp.definition(),
                DeallocOp.definition(), WaitOp.definition(), HostRegisterOp.definition(),
                HostRegisterOp.definition(HostRegisterOp.UNREGISTER), MemcpyOp.definition(),
                MemsetOp.definition(), BarrierOp.definition(), ShuffleOp.definition(),
                DynamicSharedMemoryOp.definition(), PrintfOp.definition(), SubgroupReduceOp.definition(),
                AllReduceOp.definition(), AllReduceOp.yieldDefinition()));
        defs.addAll(DimensionOp.definitions());
        defs.addAll(LaneOps.definitions());
        defs.addAll(LaunchOp.definitions());
        return defs;
    }

    /**
     * The attributes: targets, objects, offloading handlers, address spaces.
     *
     * @return the parsers of the dialect's attributes
     */
    public static List<AttrDef> attributes() {
        return List.of(new AttrDef(GpuTarget.NVVMTarget.NAME, (p, off) -> GpuTarget.NVVMTarget.parse(p)),
                new AttrDef(GpuTarget.ROCDLTarget.NAME, (p, off) -> GpuTarget.ROCDLTarget.parse(p)),
                new AttrDef(GpuTarget.CpuTarget.NAME, (p, off) -> GpuTarget.CpuTarget.parse(p)),
                new AttrDef(ObjectAttr.NAME, (p, off) -> ObjectAttr.parse(p)),
                new AttrDef(OffloadingHandlerAttr.SelectObject.NAME,
                        (p, off) -> OffloadingHandlerAttr.SelectObject.parse(p)),
                new AttrDef(OffloadingHandlerAttr.RuntimeSelect.NAME,
                        (p, off) -> new OffloadingHandlerAttr.RuntimeSelect()),
                new AttrDef(AddressSpaceAttr.NAME, AddressSpaceAttr::parse), new AttrDef("gpu", KernelOps::parseEnum));
    }

    /**
     * A handler attribute {@code #name<param>} that a registered {@link OffloadingHandler} provides, or null.
     *
     * @param name the attribute's name without {@code #}
     * @return the attribute's parser, or null when no handler of that name is registered
     */
    public static AttrDef handlerProvider(String name) {
        return OffloadingHandler.lookup(name) == null ? null
                : new AttrDef(name, (p, off) -> OffloadingHandlerAttr.External.parse(p, name));
    }

    /**
     * Reports a discardable attribute of the dialect that breaks its rule, on whatever op holds it, as
     * upstream's dialect does: the launch sizes a function promises ({@code gpu.known_block_size},
     * {@code gpu.known_grid_size}) are three i32, and {@code gpu.container_module} marks a
     * {@code builtin.module}.
     *
     * @param op the op that holds the attribute
     * @param name the attribute's name, {@code gpu.} and more
     * @param value the attribute
     * @param ctx where errors are reported
     */
    public static void verifyAttribute(Operation op, String name, Attribute value, VerifyContext ctx) {
        if (name.equals("gpu.known_block_size") || name.equals("gpu.known_grid_size")) {
            if (!(value instanceof Attribute.DenseArrayAttr d && d.elementType().equals(Type.I32) && d.size() == 3)) {
                ctx.error(op, "Invalid " + name + " of " + op.name() + " (must be array<i32: x, y, z>): " + value);
            }
        } else if (name.equals("gpu.container_module") && value instanceof Attribute.UnitAttr
                && !op.name().equals(Builtin.ModuleOp.NAME)) {
            ctx.error(op, "Invalid gpu.container_module (must mark a builtin.module): " + op.name());
        }
    }

    /**
     * The dialect's one type, {@code !gpu.async.token}.
     *
     * @return the definition of {@code !gpu.async.token}
     */
    public static List<TypeDef> types() {
        return List.of(new TypeDef("gpu.async.token", (p, off) -> Type.ASYNC_TOKEN));
    }
}
