package dev.mgpu.tools;

import dev.mgpu.codegen.EmbeddedObjects;
import dev.mgpu.ir.MgpuException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code --extract-objects}: writes the kernel objects embedded in each input (a host object, library or
 * executable, or LLVM IR or bitcode that mgpu made) to a directory, as {@code BINARY.INDEX.CHIP.EXT}, and
 * lists them on standard output with their sizes.
 */
final class Extraction {
    private Extraction() {
    }

    static int run(Options options, PrintStream out, PrintStream err) {
        List<String> inputs = new java.util.ArrayList<>(options.inputs());
        inputs.addAll(options.linkInputs().stream().filter(l -> !l.startsWith("-")).toList());
        if (inputs.isEmpty()) {
            err.println("gpu-translate: error: Invalid --extract-objects (must name an INPUT: .o, executable, .ll or"
                    + " .bc)");
            return GpuTranslate.EXIT_USAGE;
        }
        Path dir = Path.of(options.outputDir() != null ? options.outputDir() : options.output() != null
                ? options.output() : ".");
        Set<String> written = new HashSet<>();
        int found = 0;
        for (String input : inputs) {
            List<EmbeddedObjects.Embedded> objects;
            try {
                objects = EmbeddedObjects.read(input, Files.readAllBytes(Path.of(input)));
            } catch (IOException e) {
                err.println(input + ": error: Invalid input (must be readable): " + Sink.reason(e));
                return GpuTranslate.EXIT_INPUT;
            } catch (MgpuException e) {
                err.println(input + ": error: " + e.diagnostics().get(0).message());
                return GpuTranslate.EXIT_INPUT;
            }
            for (EmbeddedObjects.Embedded o : objects) {
                String name = o.fileName();
                if (!written.add(name)) {
                    err.println(input + ": error: Invalid inputs for --extract-objects (must embed binaries of"
                            + " different names): " + name + " again");
                    return GpuTranslate.EXIT_USAGE;
                }
                Path file = dir.resolve(name);
                try {
                    Files.createDirectories(dir);
                    // Written whole under another name first: a failed write leaves no half object.
                    Path part = dir.resolve("." + name + "." + ProcessHandle.current().pid() + ".part");
                    Files.write(part, o.bytes());
                    Files.move(part, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                } catch (IOException e) {
                    return GpuTranslate.outputError(err, file.toString(), e);
                }
                out.println(file + " " + o.bytes().length + " bytes");
                found++;
            }
        }
        if (found == 0) {
            err.println(inputs.get(0) + ": error: Invalid input for --extract-objects (must embed kernel objects):"
                    + " none found");
            return GpuTranslate.EXIT_INPUT;
        }
        return GpuTranslate.EXIT_OK;
    }
}
