package dev.mgpu.dialect.builtin;

import dev.mgpu.op.OpDef;
import dev.mgpu.op.OpView;

import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Block;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Region;
import dev.mgpu.text.OpAsmParser;
import dev.mgpu.text.OpAsmPrinter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The builtin dialect: {@code module}. */
public final class Builtin {
    private Builtin() {
    }

    /** {@code module [@name] [attributes {...}] { ... }}: the top-level container. */
    public static final class ModuleOp extends OpView {
        /** The op's name. */
        public static final String NAME = "builtin.module";

        /**
         * Views {@code op} as a {@code builtin.module}.
         *
         * @param op the operation
         * @throws IllegalArgumentException if {@code op} is not a {@code builtin.module}
         */
        public ModuleOp(Operation op) {
            super(op, NAME);
        }

        /**
         * Creates an empty module with one body block.
         *
         * @param loc the module's location
         * @return the new, detached module
         */
        public static ModuleOp create(Location loc) {
            Operation op = Operation.create(NAME, loc, List.of(), List.of(), Map.of(), 1, List.of());
            op.region(0).append(new Block(loc));
            return new ModuleOp(op);
        }

        /**
         * Returns the block that holds the module's ops.
         *
         * @return the entry block of the module's region
         */
        public Block body() {
            return op.region(0).entry();
        }

        /**
         * Whether the module has the {@code gpu.container_module} attribute.
         *
         * @return true when the attribute is present
         */
        public boolean isGpuContainer() {
            return op.hasAttr("gpu.container_module");
        }

        /** Sets the {@code gpu.container_module} attribute, which marks a module that holds {@code gpu.module}s. */
        public void setGpuContainer() {
            op.setAttr("gpu.container_module", Attribute.UNIT);
        }

        static OpDef definition() {
            return OpDef.of(NAME).isolatedFromAbove().symbolTable().inherent("sym_name")
                    .syntax(ModuleOp::parse, ModuleOp::print)
                    .verifier((op, ctx) -> {
                        if (op.region(0).blocks().size() != 1) {
                            ctx.error(op, "Invalid module body (must be one block): " + op.region(0).blocks().size()
                                    + " blocks");
                        }
                    });
        }

        static Operation parse(OpAsmParser p, int results, Location loc) {
            Map<String, Attribute> attrs = new LinkedHashMap<>();
            if (p.atSymbol()) {
                attrs.put("sym_name", Attribute.StringAttr.of(p.symbolName()));
            }
            attrs.putAll(p.optionalAttributesKeyword());
            Region body = p.region(null, true);
            if (body.isEmpty()) {
                body.append(new Block(loc));
            }
            return Operation.create(ModuleOp.NAME, loc, List.of(), List.of(), attrs, List.of(body), List.of());
        }

        static void print(OpAsmPrinter p, Operation op) {
            if (op.symbolName() != null) {
                p.write(' ').symbol(op.symbolName());
            }
            p.attrDict(op, Set.of("sym_name"), true);
            p.write(' ').region(op.region(0), false);
        }
    }

    /**
     * Every op of the dialect.
     *
     * @return the definition of {@code builtin.module}
     */
    public static List<OpDef> ops() {
        return List.of(ModuleOp.definition());
    }
}
