package dev.mgpu.mlir.internal;

import dev.mgpu.ir.Location;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Locations: {@code loc(...)} with file:line:col, names, fused and call-site forms, and location aliases
 * ({@code #loc = loc(...)}), which usually follow the module that uses them: a use before the definition
 * gets a placeholder that {@link Parser} replaces once the whole file is read.
 */
abstract class LocationParser extends AttributeParser {
    protected final Map<String, Location> locationAliases = new HashMap<>();
    /** Each placeholder, by identity, with the alias it stands for. */
    protected final Map<Location, String> aliasPlaceholders = new IdentityHashMap<>();
    /** The first use of each alias not yet defined, for the error when it never is. */
    protected final Map<String, Integer> pendingLocationAliases = new LinkedHashMap<>();

    LocationParser(byte[] buf, int offset, int limit, String file) {
        super(buf, offset, limit, file);
    }

    // ---------------------------------------------------------------- locations

    /** {@code loc(...)} when present; returns {@code dflt} otherwise. */
    public Location optionalTrailingLocation(Location dflt) {
        if (!atKeyword("loc")) {
            return dflt;
        }
        lx.next();
        expectPunct('(');
        Location l = locationBody();
        expectPunct(')');
        return l;
    }

    protected Location locationBody() {
        if (optionalKeyword("unknown")) {
            return Location.UNKNOWN;
        }
        if (lx.kind == Lexer.HASH_ID) {
            int off = lx.start;
            String name = lx.text().substring(1);
            lx.next();
            Location l = locationAliases.get(name);
            if (l != null) {
                return l;
            }
            // Location aliases usually follow the module that uses them; resolved in parseFile.
            pendingLocationAliases.put(name, off);
            Location placeholder = new Location.Named(name, Location.UNKNOWN);
            aliasPlaceholders.put(placeholder, name);
            return placeholder;
        }
        if (atKeyword("fused")) {
            lx.next();
            if (optionalPunct('<')) {
                attribute();
                expectPunct('>');
            }
            expectPunct('[');
            Location first = locationBody();
            while (optionalPunct(',')) {
                locationBody();
            }
            expectPunct(']');
            return first;
        }
        if (atKeyword("callsite")) {
            lx.next();
            expectPunct('(');
            Location callee = locationBody();
            expectKeyword("at");
            locationBody();
            expectPunct(')');
            return callee;
        }
        String s = string();
        if (optionalPunct(':')) {
            long line = integer();
            expectPunct(':');
            long col = integer();
            return Location.of(s, (int) line, (int) col);
        }
        Location child = Location.UNKNOWN;
        if (optionalPunct('(')) {
            child = locationBody();
            expectPunct(')');
        }
        return new Location.Named(s, child);
    }
}
