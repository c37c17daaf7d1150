package dev.mgpu.codegen;

import dev.mgpu.dialect.gpu.ObjectAttr;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Location;
import java.util.List;

/**
 * A {@code gpu.binary} as a handler sees it: its name, handler attribute and objects.
 *
 * @param name the binary's symbol name
 * @param handler the binary's offloading handler attribute
 * @param objects the binary's objects, in order
 * @param location where the binary is in the MLIR source
 */
public record BinaryDescription(String name, Attribute handler, List<ObjectAttr> objects,
        Location location) {
}
