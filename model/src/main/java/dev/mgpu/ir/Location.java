package dev.mgpu.ir;

import java.util.Objects;

/** Where an operation or diagnostic comes from. */
public sealed interface Location permits Location.FileLineCol, Location.Unknown, Location.Named {

    /** The location of nothing in particular. */
    Location UNKNOWN = new Unknown();

    /**
     * A position in a source file; line and column count from 1.
     *
     * @param file the source file's name
     * @param line the line, from 1
     * @param column the column, from 1
     */
    record FileLineCol(String file, int line, int column) implements Location {
        @Override
        public String toString() {
            return file + ":" + line + ":" + column;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof FileLineCol other && Objects.equals(file, other.file) && line == other.line
                    && column == other.column;
        }

        @Override
        public int hashCode() {
            int h = Objects.hashCode(file);
            h = 31 * h + line;
            return 31 * h + column;
        }
    }

    /** No known position. */
    record Unknown() implements Location {
        @Override
        public String toString() {
            return "unknown";
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Unknown;
        }

        @Override
        public int hashCode() {
            return 0;
        }
    }

    /**
     * A name, optionally wrapping a child location: {@code loc("name"(child))}.
     *
     * @param name the name
     * @param child the wrapped location, or {@link Location#UNKNOWN} when there is none
     */
    record Named(String name, Location child) implements Location {
        @Override
        public String toString() {
            return child instanceof Unknown ? name : child.toString();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Named other && Objects.equals(name, other.name) && Objects.equals(child, other.child);
        }

        @Override
        public int hashCode() {
            return 31 * Objects.hashCode(name) + Objects.hashCode(child);
        }
    }

    /**
     * Returns a position in {@code file} at {@code line} and {@code column}, both counted from 1.
     *
     * @param file the source file's name
     * @param line the line, from 1
     * @param column the column, from 1
     * @return a {@link FileLineCol} at that position
     */
    static Location of(String file, int line, int column) {
        return new FileLineCol(file, line, column);
    }
}
