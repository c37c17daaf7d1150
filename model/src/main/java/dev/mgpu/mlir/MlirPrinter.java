package dev.mgpu.mlir;

import dev.mgpu.ir.AsmOutput;
import dev.mgpu.ir.Operation;
import dev.mgpu.mlir.internal.Printer;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** Prints a module as MLIR text that this parser (and upstream's) reads back to an equal module. */
public final class MlirPrinter {
    private MlirPrinter() {
    }

    /**
     * Print options: locations as {@code loc(...)}, and the generic op form.
     *
     * @param locations whether to print each op's location as {@code loc(...)}
     * @param generic whether to print every op in the generic form
     */
    public record Options(boolean locations, boolean generic) {
        /** No locations, custom op forms. */
        public static final Options DEFAULT = new Options(false, false);
    }

    /**
     * Writes {@code op} and, if it has them, the file's resources ({@code {-# ... #-}}) to {@code out} as UTF-8.
     *
     * @param op the operation to print, usually a {@code builtin.module}
     * @param out where the text goes; flushed, not closed
     * @param options what to print
     */
    public static void print(Operation op, OutputStream out, Options options) {
        // The printer recurses per level of nesting: on a deep stack, whatever the caller's thread.
        dev.mgpu.ir.DeepStack.run(() -> printHere(op, out, options));
    }

    private static void printHere(Operation op, OutputStream out, Options options) {
        AsmOutput o = new AsmOutput(out);
        new Printer(o, options.locations(), options.generic()).printTopLevel(op);
        if (op.fileResources() != null) {
            o.write('\n');
            o.raw(op.fileResources());
            o.write('\n');
        }
        o.flush();
    }

    /**
     * Prints {@code op} with the {@link Options#DEFAULT} options.
     *
     * @param op the operation to print
     * @return its MLIR text
     */
    public static String print(Operation op) {
        return print(op, Options.DEFAULT);
    }

    /**
     * Prints {@code op} as {@link #print(Operation, OutputStream, Options)} does.
     *
     * @param op the operation to print
     * @param options what to print
     * @return its MLIR text
     */
    public static String print(Operation op, Options options) {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        print(op, bos, options);
        return bos.toString(StandardCharsets.UTF_8);
    }
}
