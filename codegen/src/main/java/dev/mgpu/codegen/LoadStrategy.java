package dev.mgpu.codegen;

/** When generated code loads device modules. */
public enum LoadStrategy {
    /** Load each module once, on first use, thread-safely, and cache function handles. The default. */
    LAZY("lazy"),
    /** Load every module in a global constructor and unload in a destructor. */
    CTOR("ctor"),
    /** Load and unload around every launch, as the source document does. */
    PER_LAUNCH("per-launch");

    private final String option;

    LoadStrategy(String option) {
        this.option = option;
    }

    /**
     * Returns the value of {@code --module-load} that selects this strategy.
     *
     * @return the option's value, such as {@code per-launch}
     */
    public String option() {
        return option;
    }

    /**
     * Returns the strategy that {@code --module-load=s} selects.
     *
     * @param s the option's value
     * @return the strategy, or null when none has that value
     */
    public static LoadStrategy fromOption(String s) {
        for (LoadStrategy l : values()) {
            if (l.option.equals(s)) {
                return l;
            }
        }
        return null;
    }
}
