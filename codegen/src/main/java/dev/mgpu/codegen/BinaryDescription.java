package dev.mgpu.codegen;

import dev.mgpu.dialect.gpu.ObjectAttr;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Location;
import java.util.List;

/** A {@code gpu.binary} as a handler sees it: its name, handler attribute and objects. */
public record BinaryDescription(String name, Attribute handler, List<ObjectAttr> objects,
        Location location) {
}
