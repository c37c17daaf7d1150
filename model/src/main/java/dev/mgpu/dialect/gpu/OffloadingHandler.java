package dev.mgpu.dialect.gpu;

import dev.mgpu.ir.Attribute;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * A provider of an offloading handler attribute {@code #name<param>}, found through
 * {@link ServiceLoader}. The model uses it to parse and verify the attribute; translation to LLVM uses
 * the codegen's extension of this interface. The built-in {@code #gpu.select_object} and
 * {@code #gpu.runtime_select} need no provider.
 */
public interface OffloadingHandler {
    /**
     * The attribute name without {@code #}, e.g. {@code acme.fat_binary}.
     *
     * @return the attribute's name
     */
    String name();

    /**
     * Checks the handler against the objects of a {@code gpu.binary}; returns one message per problem,
     * each in the form {@code Invalid <what> (must be <rule>): <value>}.
     * The default finds no problem.
     *
     * @param attr the handler attribute of the {@code gpu.binary}
     * @param objects the binary's objects
     * @return the problems found; empty when there are none
     */
    default List<String> verify(OffloadingHandlerAttr.External attr, List<Attribute> objects) {
        return List.of();
    }

    /**
     * The provider registered for {@code name}, or null.
     *
     * @param name the attribute name without {@code #}
     * @return the provider, or null when none has that name
     */
    static OffloadingHandler lookup(String name) {
        return Registry.HANDLERS.get(name);
    }

    /**
     * Every registered provider, by name.
     *
     * @return an unmodifiable map from attribute name to provider
     */
    static Map<String, OffloadingHandler> all() {
        return Registry.HANDLERS;
    }

    /** Loads providers once, from the class loader that loaded mgpu. */
    final class Registry {
        static final Map<String, OffloadingHandler> HANDLERS;

        static {
            Map<String, OffloadingHandler> m = new HashMap<>();
            for (OffloadingHandler h : ServiceLoader.load(OffloadingHandler.class, OffloadingHandler.class.getClassLoader())) {
                m.putIfAbsent(h.name(), h);
            }
            HANDLERS = Collections.unmodifiableMap(m);
        }

        private Registry() {
        }
    }
}
