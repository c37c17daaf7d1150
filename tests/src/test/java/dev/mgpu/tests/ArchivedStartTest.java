package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Type;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What a run through the launcher makes at run time that the build's class-data archive could have held: no
 * record's {@code equals}, {@code hashCode} or {@code toString} is made from method handles (its first one
 * costs some 10 ms, each after it 2-4 ms, and JDK 17 archives none), and every lambda of mgpu's is mapped from
 * the archive, not made again.
 */
class ArchivedStartTest {
    /** The value records of the model, and the codegen records kept as keys of maps. */
    @Test
    void everyValueRecordSpellsOutItsEquality() throws Exception {
        List<String> missing = new ArrayList<>();
        int checked = 0;
        JavaClasses classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.mgpu");
        for (JavaClass jc : classes) {
            boolean value = jc.isAssignableTo(Type.class) || jc.isAssignableTo(Attribute.class)
                    || jc.isAssignableTo(Location.class);
            boolean key = jc.getName().startsWith("dev.mgpu.codegen.LaunchEmitter$")
                    || jc.getName().equals("dev.mgpu.codegen.LaunchScratch$ScratchKey");
            if (!jc.isRecord() || !(value || key)) {
                continue;
            }
            Class<?> c = jc.reflect();
            checked++;
            // javac makes a record's own equals and hashCode call ObjectMethods through invokedynamic, whose
            // descriptors take the record first; a class spelling them out has no such descriptor.
            String self = "(L" + c.getName().replace('.', '/') + ";";
            String bytes;
            try (var in = c.getResourceAsStream("/" + c.getName().replace('.', '/') + ".class")) {
                bytes = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            }
            if (bytes.contains(self + "Ljava/lang/Object;)Z")) {
                missing.add(c.getName() + ".equals");
            }
            if (bytes.contains(self + ")I")) {
                missing.add(c.getName() + ".hashCode");
            }
        }
        assertTrue(checked > 40, "records checked: " + checked);
        assertEquals(List.of(), missing);
    }

    /** Equal records hash alike, and records of other values are not equal. */
    @Test
    void spelledOutEqualityKeepsItsContract() {
        List<Object[]> pairs = List.of(
                new Object[] {new Type.IntegerType(32), Type.I32, new Type.IntegerType(33)},
                new Object[] {new Type.FunctionType(List.of(Type.I32), List.of()),
                    new Type.FunctionType(List.of(Type.I32), List.of()),
                    new Type.FunctionType(List.of(), List.of(Type.I32))},
                new Object[] {new Type.LLVMStructType(List.of(Type.I8), true),
                    new Type.LLVMStructType(List.of(Type.I8), true), new Type.LLVMStructType(List.of(Type.I8), false)},
                new Object[] {new Type.LLVMFunctionType(Type.VOID, List.of(Type.PTR), true),
                    new Type.LLVMFunctionType(Type.VOID, List.of(Type.PTR), true),
                    new Type.LLVMFunctionType(Type.VOID, List.of(Type.PTR), false)},
                new Object[] {new Type.UnrankedMemRefType(Type.F32, null), new Type.UnrankedMemRefType(Type.F32, null),
                    new Type.UnrankedMemRefType(Type.F32, Attribute.IntegerAttr.i64(1))},
                new Object[] {Attribute.IntegerAttr.i64(7), Attribute.IntegerAttr.i64(7), Attribute.IntegerAttr.i32(7)},
                new Object[] {new Attribute.DictionaryAttr(Map.of("a", Attribute.UNIT)),
                    new Attribute.DictionaryAttr(Map.of("a", new Attribute.UnitAttr())),
                    new Attribute.DictionaryAttr(Map.of("b", Attribute.UNIT))},
                new Object[] {Attribute.SymbolRefAttr.of("m", "k"), Attribute.SymbolRefAttr.of("m", "k"),
                    Attribute.SymbolRefAttr.of("m")},
                new Object[] {new Location.FileLineCol("f", 1, 2), new Location.FileLineCol("f", 1, 2),
                    new Location.FileLineCol("f", 2, 1)});
        for (Object[] p : pairs) {
            assertEquals(p[0], p[1]);
            assertEquals(p[0].hashCode(), p[1].hashCode(), p[0].toString());
            assertFalse(p[0].equals(p[2]), p[0] + " and " + p[2]);
            assertFalse(p[0].equals(null));
        }
    }

    /**
     * Each run, of inputs that between them compare or hash every kind of record above (host code, launches,
     * kernels for every target, gpu.binary objects, the generic form), through the launcher.
     */
    @ParameterizedTest
    @CsvSource({"examples/kernels/axpy.mlir,llvm", "tests/mlir/translate/launch.mlir,llvm",
        "tests/mlir/translate/launch.mlir,mlir", "tests/mlir/roundtrip/host.mlir,llvm",
        "tests/e2e/runner/device_memref.mlir,llvm", "tests/mlir/roundtrip/upstream-generic.mlir,mlir"})
    void aRunMakesNoRecordMethod(String input, String emit) throws Exception {
        Path work = Files.createTempDirectory("mgpu-archived");
        Native.Result r = launch(work, "-Djava.lang.invoke.MethodHandle.TRACE_METHOD_LINKAGE=true",
                "--emit=" + emit, TestPaths.root().resolve(input).toString(), "-o", work.resolve("out." + emit).toString());
        assertTrue((r.out() + r.err()).contains("linkCallSite "), "no linkage trace: " + r.out() + r.err());
        List<String> made = new ArrayList<>();
        for (String line : (r.out() + r.err()).split("\n")) {
            if (line.contains("java.lang.runtime.ObjectMethods.bootstrap")) {
                made.add(line.substring(0, Math.min(line.length(), 160)));
            }
        }
        assertEquals(List.of(), made, "record methods made from method handles");
    }

    /**
     * A run of what the build's training runs translate, as they translate it, makes no lambda of mgpu's: each
     * is mapped from the archive. (Lambdas of the op classes nested in a table of ops, whose outer class no
     * run links, were made again at each run; as was a lambda of the launcher's path alone.)
     */
    @ParameterizedTest
    @CsvSource({"cds-training.mlir,--emit=llvm", "cds-training.mlir,--emit=mlir",
        "cds-kernels.mlir,--compile-kernels"})
    void aRunOfTheTrainingInputsMakesNoLambda(String input, String option) throws Exception {
        Path root = TestPaths.root();
        Assumptions.assumeTrue(Files.isRegularFile(root.resolve("tools/target/gpu-translate.jsa")),
                "this JVM writes no class-data archive");
        Path work = Files.createTempDirectory("mgpu-archived");
        Path log = work.resolve("classes.log");
        Path in = root.resolve("tools/src/main/resources/dev/mgpu/tools").resolve(input);
        if (option.equals("--compile-kernels")) {
            // One target: the targets of a module compile side by side, and where two threads link one call site
            // at once, JDK 17 gives the archived lambda to one and the other makes its own (seen in 3 of 5 runs).
            String text = Files.readString(in);
            String rocdl = ", #rocdl.target<chip = \"gfx90a\">";
            assertTrue(text.contains(rocdl), text);
            in = work.resolve("kernels-nvptx.mlir");
            Files.writeString(in, text.replace(rocdl, ""));
        }
        List<String> args = new ArrayList<>(List.of(option, in.toString(), "-o", work.resolve("out").toString()));
        if (option.equals("--compile-kernels")) {
            args.addAll(List.of("--emit=mlir", "--gpu-format=assembly"));
        }
        launch(work, "-Xlog:class+load=info:file=" + log, args.toArray(String[]::new));
        List<String> lines = Files.readAllLines(log);
        assertTrue(lines.stream().anyMatch(l -> l.contains("dev.mgpu.tools.GpuTranslate source: shared objects file")),
                "the archive is not mapped");
        List<String> lambdas = lines.stream().filter(l -> l.contains(" dev.mgpu.") && l.contains("$$Lambda"))
                .filter(l -> !l.contains("source: shared objects file")).toList();
        assertEquals(List.of(), lambdas, "lambdas of mgpu's made at run time");
    }

    /**
     * A run through the launcher loads every class from the archive but those that JDK 17 cannot hold (the
     * method handles' forms it spins, the proxies of annotations): none from the JDK's modules or a jar, which
     * costs a class's parsing at each run. Each run twice, the second over the first's output, as a rebuild
     * writes. (The launcher's start time was parsed with BigDecimal and java.time, and an output's mode read
     * through views that no training run used: 13 classes of the JDK's at each run.)
     */
    @ParameterizedTest
    @CsvSource({"cds-kernels.mlir,--compile-kernels", "examples/kernels/axpy.mlir,--emit=mlir",
        "tests/mlir/translate/launch.mlir,--emit=llvm"})
    void aRunLoadsItsClassesFromTheArchive(String input, String option) throws Exception {
        Path root = TestPaths.root();
        assumeTheLauncherMapsThisJdksArchive();
        Path work = Files.createTempDirectory("mgpu-archived");
        Path in = root.resolve(input);
        List<String> args = new ArrayList<>(List.of(option));
        if (option.equals("--compile-kernels")) {
            // One target, for the reason aRunOfTheTrainingInputsMakesNoLambda gives.
            String text = Files.readString(root.resolve("tools/src/main/resources/dev/mgpu/tools").resolve(input));
            in = work.resolve("kernels-nvptx.mlir");
            Files.writeString(in, text.replace(", #rocdl.target<chip = \"gfx90a\">", ""));
            args.addAll(List.of("--emit=mlir", "--gpu-format=assembly"));
        }
        args.addAll(List.of(in.toString(), "-o", work.resolve("out").toString()));
        for (int run = 0; run < 2; run++) {
            Path log = work.resolve("classes" + run + ".log");
            launch(work, "-Xlog:class+load=info:file=" + log, args.toArray(String[]::new));
            List<String> lines = Files.readAllLines(log);
            assertTrue(lines.size() > 500, "no class-load log: " + lines.size() + " lines");
            List<String> elsewhere = lines.stream().filter(l -> !l.endsWith("source: shared objects file")
                    && !l.endsWith("source: __JVM_LookupDefineClass__") && !l.endsWith("source: __dynamic_proxy__"))
                    .toList();
            assertEquals(List.of(), elsewhere, "classes not from the archive, run " + (run + 1));
        }
    }

    /**
     * The launcher maps one archive, the build's, of the JDK's classes and mgpu's together: not the JDK's own
     * with a second, dynamic one over it, which made the JVM relocate some 20 MB at each start.
     */
    @Test
    void theLauncherMapsOneStaticArchive() throws Exception {
        Path root = TestPaths.root();
        assumeTheLauncherMapsThisJdksArchive();
        Path work = Files.createTempDirectory("mgpu-archived");
        Native.Result r = launch(work, "-Xlog:cds=info", "--emit=mlir",
                root.resolve("examples/kernels/axpy.mlir").toString(), "-o", work.resolve("out.mlir").toString());
        List<String> mapped = r.out().lines().filter(l -> l.contains("Mapped ")).toList();
        assertFalse(mapped.isEmpty(), r.out());
        assertTrue(mapped.stream().allMatch(l -> l.contains("Mapped static")), String.join("\n", mapped));
    }

    /**
     * -v counts the run's time from the launcher's start, which the launcher passes as seconds since the epoch
     * with a fraction, after a point or a comma as the locale writes it; a time that is not one, or more than a
     * minute ago, counts from the JVM's main instead. (Read now only for -v, without BigDecimal.)
     */
    @ParameterizedTest
    @CsvSource({"'.',true", "',',true", "'',true", "'x',false", "'.',false"})
    void theTimesCountFromTheLaunchersStart(String mark, boolean recent) throws Exception {
        Path work = Files.createTempDirectory("mgpu-archived");
        long ago = recent ? 7_250_000 : 75_000_000;
        long micros = System.currentTimeMillis() * 1000 - ago;
        String launched = mark.equals("x") ? "soon" : mark.isEmpty() ? Long.toString(micros / 1_000_000)
                : micros / 1_000_000 + mark + String.format("%06d", micros % 1_000_000);
        Native.Result r = launch(work, "-Dmgpu.launched=" + launched, "-v", "--emit=mlir",
                TestPaths.root().resolve("examples/kernels/axpy.mlir").toString(), "-o", work.resolve("out.mlir").toString());
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("Total Execution Time: ([0-9.]+) seconds")
                .matcher(r.err());
        assertTrue(m.find(), r.err());
        double total = Double.parseDouble(m.group(1));
        if (recent) {
            assertTrue(total >= 7.25 && total < 60, launched + ": " + total);
        } else {
            assertTrue(total < 7, launched + ": " + total);
        }
    }

    /**
     * Skips a test where the build wrote no class-data archive, or where the launcher runs another JDK than
     * this one, JAVA_HOME's (a JDK of 25 or later maps its AOT cache instead, and logs it elsewhere).
     */
    private static void assumeTheLauncherMapsThisJdksArchive() throws java.io.IOException {
        Assumptions.assumeTrue(Files.isRegularFile(TestPaths.root().resolve("tools/target/gpu-translate.jsa")),
                "this JVM writes no class-data archive");
        String javaHome = System.getenv("JAVA_HOME");
        Assumptions.assumeTrue(javaHome == null || javaHome.isEmpty()
                || Path.of(javaHome).toRealPath().equals(Path.of(System.getProperty("java.home")).toRealPath()),
                "JAVA_HOME is another JDK: " + javaHome);
    }

    /** Runs the launcher with {@code javaOptions}, and requires success. */
    private static Native.Result launch(Path work, String javaOptions, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(TestPaths.root().resolve("tools/gpu-translate").toString()));
        cmd.addAll(List.of(args));
        // In a JVM of its own, whatever the environment says (a served run's output is not the JVM's).
        Native.Result r = Native.run(work, Map.of("MGPU_JAVA_OPTS", javaOptions, "MGPU_SERVER", "0"), cmd);
        assertEquals(0, r.exit(), r.err());
        return r;
    }
}
