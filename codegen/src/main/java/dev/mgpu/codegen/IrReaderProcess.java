package dev.mgpu.codegen;

import dev.mgpu.codegen.internal.llvm.ExternalTools;
import dev.mgpu.codegen.internal.llvm.IsolatedBackend;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.MgpuException;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * LLVM IR or bitcode that a user gives to read objects from, read by LLVM in a JVM of its own: LLVM's readers
 * end the process on some inputs (a type nested 200,000 deep overflows the stack of its recursive parser), and
 * that must never be the JVM that asked, nor a server and the runs it serves. The child reads the file's bytes
 * from its standard input and writes what it found to its standard output. {@code MGPU_BACKEND_PROCESS=shared}
 * reads in this JVM instead, as it generates code here.
 */
public final class IrReaderProcess {
    /** The child's exit code for an input that LLVM reads but refuses, or that embeds nothing it can read. */
    private static final int REFUSED = 3;

    private IrReaderProcess() {
    }

    /** Whether LLVM IR is read in a process of its own. */
    static boolean enabled() {
        return IsolatedBackend.enabled();
    }

    /**
     * The objects embedded in LLVM IR or bitcode, read by a child JVM.
     *
     * @param file the file's name, for errors
     * @param bytes its contents
     * @return the objects, in the order the file has them
     * @throws MgpuException located at the file, when LLVM refuses the input or its reader ends the child
     */
    static List<EmbeddedObjects.Embedded> read(String file, byte[] bytes) {
        Location where = new Location.FileLineCol(file, 0, 0);
        Path dir = ExternalTools.tempDir("mgpu-read", where);
        try {
            List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:-UsePerfData", "-Xshare:auto",
                    "-XX:ErrorFile=" + dir.resolve("crash.log"), "-cp", System.getProperty("java.class.path"),
                    IrReaderProcess.class.getName(), file);
            Process p = new ProcessBuilder(cmd).directory(dir.toFile())
                    .redirectError(dir.resolve("err.log").toFile()).start();
            try (OutputStream in = p.getOutputStream()) {
                in.write(bytes);
            } catch (IOException e) {
                // The child ended before it read everything: how it ended says why.
            }
            byte[] answer = p.getInputStream().readAllBytes();
            if (!p.waitFor(300, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw EmbeddedObjects.invalid(file, "LLVM's reader must finish within 300 s");
            }
            int exit = p.exitValue();
            if (exit == 0 || exit == REFUSED) {
                return decode(file, answer, exit == REFUSED);
            }
            throw EmbeddedObjects.invalid(file, "LLVM's reader " + IsolatedBackend.ended(exit)
                    + " in a process of its own");
        } catch (IOException e) {
            throw new MgpuException(where, "Invalid JVM for reading LLVM IR (it must start): " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MgpuException(where, "Invalid read of LLVM IR (interrupted)");
        } finally {
            ExternalTools.deleteTree(dir);
        }
    }

    private static List<EmbeddedObjects.Embedded> decode(String file, byte[] answer, boolean refused)
            throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(answer));
        if (refused) {
            throw new MgpuException(new Location.FileLineCol(file, 0, 0), in.readUTF());
        }
        int n = in.readInt();
        List<EmbeddedObjects.Embedded> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String binary = in.readUTF();
            int index = in.readInt();
            String chip = in.readUTF();
            String extension = in.readUTF();
            byte[] bytes = new byte[in.readInt()];
            in.readFully(bytes);
            out.add(new EmbeddedObjects.Embedded(binary, index, chip, extension, bytes));
        }
        return out;
    }

    /**
     * The child: reads LLVM IR or bitcode from standard input and writes the objects it embeds to standard
     * output; exits with 3 and the error's message for an input that LLVM refuses.
     *
     * @param args the file's name, for errors
     * @throws IOException when standard input or output fails
     */
    public static void main(String[] args) throws IOException {
        byte[] bytes = System.in.readAllBytes();
        DataOutputStream out = new DataOutputStream(new BufferedOutputStream(System.out));
        List<EmbeddedObjects.Embedded> objects;
        try {
            objects = EmbeddedObjects.fromIr(args[0], bytes);
        } catch (MgpuException e) {
            String m = e.diagnostics().get(0).message();
            byte[] utf = m.getBytes(StandardCharsets.UTF_8);
            out.writeUTF(utf.length > 60_000 ? new String(utf, 0, 60_000, StandardCharsets.UTF_8) : m);
            out.flush();
            System.exit(REFUSED);
            return;
        }
        out.writeInt(objects.size());
        for (EmbeddedObjects.Embedded o : objects) {
            out.writeUTF(o.binary());
            out.writeInt(o.index());
            out.writeUTF(o.chip());
            out.writeUTF(o.extension());
            out.writeInt(o.bytes().length);
            out.write(o.bytes());
        }
        out.flush();
        System.exit(0);
    }
}
