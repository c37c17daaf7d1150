package dev.mgpu.ir;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * An insertion-ordered map for an operation's few attributes, kept in two parallel arrays: most ops have
 * one to four attributes, for which a hash map costs more memory and time than a scan.
 */
final class AttrMap extends AbstractMap<String, Attribute> {
    private String[] keys;
    private Attribute[] values;
    private int size;

    AttrMap(Map<String, Attribute> from) {
        int n = from.size();
        keys = new String[Math.max(n, 2)];
        values = new Attribute[keys.length];
        for (Map.Entry<String, Attribute> e : from.entrySet()) {
            keys[size] = e.getKey();
            values[size++] = e.getValue();
        }
    }

    private int index(Object key) {
        // Keys are mostly the same string constants as those asked for: a scan for the very object first,
        // which costs no call, finds them.
        for (int i = 0; i < size; i++) {
            if (keys[i] == key) {
                return i;
            }
        }
        for (int i = 0; i < size; i++) {
            if (keys[i].equals(key)) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public Attribute get(Object key) {
        int i = index(key);
        return i < 0 ? null : values[i];
    }

    @Override
    public boolean containsKey(Object key) {
        return index(key) >= 0;
    }

    @Override
    public Attribute put(String key, Attribute value) {
        int i = index(key);
        if (i >= 0) {
            Attribute old = values[i];
            values[i] = value;
            return old;
        }
        if (size == keys.length) {
            keys = Arrays.copyOf(keys, size * 2);
            values = Arrays.copyOf(values, size * 2);
        }
        keys[size] = key;
        values[size++] = value;
        return null;
    }

    @Override
    public Attribute remove(Object key) {
        int i = index(key);
        if (i < 0) {
            return null;
        }
        Attribute old = values[i];
        System.arraycopy(keys, i + 1, keys, i, size - i - 1);
        System.arraycopy(values, i + 1, values, i, size - i - 1);
        size--;
        keys[size] = null;
        values[size] = null;
        return old;
    }

    @Override
    public int size() {
        return size;
    }

    /** The keys in order, read straight from the array: no entry is made for each. */
    @Override
    public Set<String> keySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<String> iterator() {
                return new Cursor<>(k -> keys[k]);
            }

            @Override
            public boolean contains(Object key) {
                return index(key) >= 0;
            }

            @Override
            public int size() {
                return size;
            }
        };
    }

    @Override
    public Set<Map.Entry<String, Attribute>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Map.Entry<String, Attribute>> iterator() {
                return new Cursor<>(k -> new SimpleImmutableEntry<>(keys[k], values[k]));
            }

            @Override
            public int size() {
                return size;
            }
        };
    }

    /** An iterator over the positions in order, giving what {@code at} makes of each. */
    private final class Cursor<T> implements Iterator<T> {
        private final java.util.function.IntFunction<T> at;
        private int i;

        Cursor(java.util.function.IntFunction<T> at) {
            this.at = at;
        }

        @Override
        public boolean hasNext() {
            return i < size;
        }

        @Override
        public T next() {
            if (i >= size) {
                throw new NoSuchElementException();
            }
            return at.apply(i++);
        }
    }
}
