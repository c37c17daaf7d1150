package dev.mgpu.dialect.gpu;

/** The formats a {@code #gpu.object} blob can have, with their keywords. */
public enum ObjectFormat {
    /** LLVM bitcode for offloading, linked in later ({@code offload}). */
    OFFLOAD("offload"),
    /** Assembly text, such as PTX ({@code assembly}). */
    ASSEMBLY("assembly"),
    /** A device binary ({@code bin}). */
    BINARY("bin"),
    /** A fat binary holding code for several devices ({@code fatbin}). */
    FATBIN("fatbin");

    private final String keyword;

    ObjectFormat(String keyword) {
        this.keyword = keyword;
    }

    /**
     * The keyword that names the format in {@code #gpu.object}.
     *
     * @return the keyword, such as {@code bin} for {@link #BINARY}
     */
    public String keyword() {
        return keyword;
    }

    /**
     * The format named {@code k}, or null.
     *
     * @param k a keyword, such as {@code fatbin}
     * @return the format, or null when no format has that keyword
     */
    public static ObjectFormat fromKeyword(String k) {
        for (ObjectFormat f : values()) {
            if (f.keyword.equals(k)) {
                return f;
            }
        }
        return null;
    }
}
