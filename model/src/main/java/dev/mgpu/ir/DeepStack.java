package dev.mgpu.ir;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Runs work that recurses once per level of nesting (parsing, verifying, printing and translating a
 * module) on a thread with a stack deep enough for the deepest input the parser accepts, whatever thread
 * calls it: a caller's thread may have a stack of 512 KiB or less, where 500 levels of {@code gpu.func}
 * nesting overflow. The stack is reserved, not committed: only the pages the work reaches are used. The
 * threads are pooled (starting one costs about a millisecond here, more than a small translation) and
 * end after a minute idle; work already on such a thread runs where it is.
 */
public final class DeepStack {
    /** The stack size of the threads work runs on. */
    public static final long STACK_BYTES = 256L << 20;

    private DeepStack() {
    }

    private static final class Worker extends Thread {
        Worker(Runnable r) {
            super(null, r, "mgpu-deep-stack", STACK_BYTES);
            setDaemon(true);
        }
    }

    private static final List<Carried<?>> CARRIED = new java.util.concurrent.CopyOnWriteArrayList<>();

    /**
     * A value of the calling thread that work run here sees as its own, on whatever thread it runs: what a
     * caller sets for the duration of a call (as {@link #with} does) reaches the pieces of that call.
     *
     * @param <T> the type of the value
     */
    public static final class Carried<T> {
        private final ThreadLocal<T> value = new ThreadLocal<>();

        /** A new carried value, null on every thread until set. */
        public Carried() {
            CARRIED.add(this);
        }

        /**
         * The value on this thread.
         *
         * @return the value, or null
         */
        public T get() {
            return value.get();
        }

        /**
         * Runs {@code body} with the value {@code v}, then restores the one before.
         *
         * @param <R> what {@code body} returns
         * @param v the value while {@code body} runs
         * @param body what to run
         * @return what {@code body} returned
         */
        public <R> R with(T v, Supplier<R> body) {
            T before = value.get();
            value.set(v);
            try {
                return body.get();
            } finally {
                value.set(before);
            }
        }

        @SuppressWarnings("unchecked")
        private <R> R withRaw(Object v, Supplier<R> body) {
            return with((T) v, body);
        }
    }

    /** {@code work} wrapped to run with the caller's carried values, on whichever thread runs it. */
    private static <T> Supplier<T> carrying(Supplier<T> work) {
        List<Object> values = new ArrayList<>();
        for (Carried<?> c : CARRIED) {
            values.add(c.get());
        }
        return () -> carry(0, values, work);
    }

    private static <T> T carry(int i, List<Object> values, Supplier<T> work) {
        return i == values.size() ? work.get() : CARRIED.get(i).withRaw(values.get(i), () -> carry(i + 1, values, work));
    }

    private static final ExecutorService POOL = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS,
            new SynchronousQueue<>(), Worker::new);

    /**
     * Runs {@code work} on a deep stack and returns its result; what it throws is thrown here.
     *
     * @param <T> the type of the result
     * @param work the work to run
     * @return what {@code work} returns
     * @throws IllegalStateException if {@code work} throws a checked exception
     */
    public static <T> T call(Supplier<T> work) {
        if (Thread.currentThread() instanceof Worker) {
            return work.get();
        }
        Supplier<T> carried = carrying(work);
        return await(POOL.submit(carried::get));
    }

    /**
     * Runs independent pieces of work on deep stacks, as many at once as there are processors (the calling
     * thread takes its share), and returns their results in the order given. When pieces throw, what the
     * first of them in that order threw is thrown here, once every piece has finished.
     *
     * @param <T> the type of the results
     * @param work the pieces, which must not share mutable state
     * @return each piece's result, in order
     */
    public static <T> List<T> callAll(List<? extends Supplier<T>> work) {
        int n = work.size();
        List<T> results = new ArrayList<>(Collections.nCopies(n, null));
        Throwable[] failures = new Throwable[n];
        AtomicInteger next = new AtomicInteger();
        List<Supplier<T>> carried = new ArrayList<>();
        for (Supplier<T> w : work) {
            carried.add(carrying(w));
        }
        Runnable drain = () -> {
            for (int i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
                try {
                    results.set(i, carried.get(i).get());
                } catch (RuntimeException | Error e) {
                    failures[i] = e;
                }
            }
        };
        List<Future<?>> helpers = new ArrayList<>();
        for (int h = Math.min(n, Runtime.getRuntime().availableProcessors()) - 1; h > 0; h--) {
            helpers.add(POOL.submit(drain));
        }
        run(drain);
        for (Future<?> f : helpers) {
            await(f);
        }
        for (Throwable t : failures) {
            if (t instanceof RuntimeException r) {
                throw r;
            }
            if (t instanceof Error e) {
                throw e;
            }
        }
        return results;
    }

    /** Waits for {@code f} without giving up on an interrupt (the work may hold native resources). */
    private static <T> T await(Future<T> f) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return f.get();
                } catch (InterruptedException e) {
                    // The work holds native resources it must release itself: wait for it, then re-interrupt.
                    interrupted = true;
                } catch (ExecutionException e) {
                    Throwable c = e.getCause();
                    if (c instanceof RuntimeException r) {
                        throw r;
                    }
                    if (c instanceof Error err) {
                        throw err;
                    }
                    throw new IllegalStateException(c);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Runs {@code work} on a deep stack.
     *
     * @param work the work to run
     */
    public static void run(Runnable work) {
        call(() -> {
            work.run();
            return null;
        });
    }
}
