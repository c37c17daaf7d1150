package dev.mgpu.ir;

import java.util.function.Supplier;

/**
 * Runs work that recurses once per level of nesting (parsing, verifying, printing and translating a
 * module) on a thread with a stack deep enough for the deepest input the parser accepts, whatever thread
 * calls it: a caller's thread may have a stack of 512 KiB or less, where 500 levels of {@code gpu.func}
 * nesting overflow. The stack is reserved, not committed: only the pages the work reaches are used.
 * Work already on such a thread runs where it is.
 */
public final class DeepStack {
    /** The stack size of the threads work runs on. */
    public static final long STACK_BYTES = 256L << 20;

    private DeepStack() {
    }

    private static final class Worker extends Thread {
        private Object result;
        private Throwable failure;
        private final Supplier<?> work;

        Worker(Supplier<?> work) {
            super(null, null, "mgpu-deep-stack", STACK_BYTES);
            this.work = work;
            setDaemon(true);
        }

        @Override
        public void run() {
            try {
                result = work.get();
            } catch (Throwable e) {
                failure = e;
            }
        }
    }

    /** Runs {@code work} on a deep stack and returns its result; what it throws is thrown here. */
    @SuppressWarnings("unchecked")
    public static <T> T call(Supplier<T> work) {
        if (Thread.currentThread() instanceof Worker) {
            return work.get();
        }
        Worker w = new Worker(work);
        w.start();
        boolean interrupted = false;
        while (true) {
            try {
                w.join();
                break;
            } catch (InterruptedException e) {
                // The work holds native resources it must release itself: wait for it, then re-interrupt.
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (w.failure instanceof RuntimeException r) {
            throw r;
        }
        if (w.failure instanceof Error e) {
            throw e;
        }
        if (w.failure != null) {
            throw new IllegalStateException(w.failure);
        }
        return (T) w.result;
    }

    /** Runs {@code work} on a deep stack. */
    public static void run(Runnable work) {
        call(() -> {
            work.run();
            return null;
        });
    }
}
