package dev.mgpu.tests;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import dev.mgpu.dialect.Dialects;
import dev.mgpu.dialect.OpBuilder;
import dev.mgpu.dialect.arith.Arith;
import dev.mgpu.dialect.builtin.Builtin;
import dev.mgpu.dialect.func.Func;
import dev.mgpu.dialect.gpu.MemsetOp;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Region;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import dev.mgpu.mlir.MlirParser;
import dev.mgpu.mlir.MlirPrinter;
import dev.mgpu.op.OpDef;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The model's structural guarantees: ownership of regions, printing only what is named, op definitions;
 * and the shape of the source: files of a readable size, and dialects that stand on their own.
 */
class ModelStructureTest {
    private static final Location LOC = Location.of("structure.java", 1, 1);

    /** The modules whose {@code src/main/java} files are held to {@link #MAX_LINES}. */
    static final List<String> SIZE_CHECKED_MODULES = List.of("model", "codegen", "tools");

    /** The most lines a main source file may have, unless it says near its top that it reads as a table. */
    static final int MAX_LINES = 600;

    /** A comment, in a file's first 30 lines, that lets a table of ops stay one file. */
    private static final Pattern TABLE_MARK = Pattern.compile("^\\s*(//|/\\*|\\*).*read as a table",
            Pattern.CASE_INSENSITIVE);

    /**
     * The dialect packages that may use another dialect's, each with the reason: an op of one dialect that
     * really is about the other's op. The shared syntax of dialects lives in {@code dev.mgpu.op} and
     * {@code dev.mgpu.text}, not in a dialect that another borrows it from. The rule reads both the class
     * files and the sources' imports: javac inlines a constant such as an op's name, so a class file may
     * not show a dependency that its source has.
     */
    static final Map<String, String> DIALECT_DEPENDENCIES = Map.of(
            "gpu -> builtin", "gpu.launch_func must be inside a builtin.module with the gpu.container_module"
                    + " attribute, and walks out through symbol tables to find that module");

    private static final Pattern DIALECT = Pattern.compile("^dev\\.mgpu\\.dialect\\.([A-Za-z0-9_]+)(\\..*)?$");

    @Test
    void printingAValueDefinedOutsideThePrintedOpIsAnInternalError() {
        Func.FuncOp outer = Func.FuncOp.create(LOC, "outer", new Type.FunctionType(List.of(), List.of()));
        Value c = OpBuilder.atEnd(outer.body(), LOC).constant(1, Type.I32);
        Builtin.ModuleOp m = Builtin.ModuleOp.create(LOC);
        Func.FuncOp f = OpBuilder.atEnd(m.body(), LOC).func("f", new Type.FunctionType(List.of(), List.of()));
        OpBuilder b = OpBuilder.atEnd(f.body(), LOC);
        b.funcReturn(List.of(c));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> MlirPrinter.print(m.op()));
        assertTrue(e.getMessage().startsWith("value without a name"), e.getMessage());
    }

    @Test
    void aRegionBelongsToOneOp() {
        Region r = new Region();
        Operation.create("test.a", LOC, List.of(), List.of(), Map.of(), List.of(r), List.of());
        assertThrows(IllegalStateException.class,
                () -> Operation.create("test.b", LOC, List.of(), List.of(), Map.of(), List.of(r), List.of()));
    }

    @Test
    void genericRegionsAreParsedInOnePass() {
        String text = "\"test.outer\"() ({\n  \"test.inner\"() ({\n    \"test.leaf\"() : () -> ()\n  }, {\n  })"
                + " : () -> ()\n}) : () -> ()\n";
        Operation m = MlirParser.parse(text, "generic.mlir");
        Operation outer = m.region(0).entry().operations().get(0);
        Operation inner = outer.region(0).entry().operations().get(0);
        assertEquals(2, inner.regions().size());
        assertEquals("test.leaf", inner.region(0).entry().operations().get(0).name());
        assertTrue(inner.region(1).isEmpty());
    }

    @Test
    void everyOpIsDefinedByItsClass() {
        for (String name : List.of(MemsetOp.NAME, Arith.ConstantOp.NAME, Arith.BinaryOp.nameOf("addi"),
                Func.ReturnOp.NAME, Builtin.ModuleOp.NAME)) {
            OpDef d = Dialects.lookup(name);
            assertNotNull(d, name);
            assertNotNull(d.parser(), name);
            assertNotNull(d.printer(), name);
        }
        assertThrows(IllegalArgumentException.class, () -> Arith.BinaryOp.nameOf("add"));
    }

    @Test
    void mainSourceFilesStayReadable() throws IOException {
        List<String> tooLong = tooLong(TestPaths.root(), SIZE_CHECKED_MODULES);
        assertTrue(tooLong.isEmpty(), "Main source files over " + MAX_LINES + " lines (split them along their"
                + " ideas, or say in a comment near the top that the file is read as a table): " + tooLong);
    }

    @Test
    void aLongFileIsFoundUnlessItReadsAsATable(@TempDir Path root) throws IOException {
        Path src = Files.createDirectories(root.resolve("m/src/main/java/p"));
        String body = "class X {\n" + "    int x;\n".repeat(MAX_LINES - 1) + "}\n";
        Files.writeString(src.resolve("Long.java"), body);
        Files.writeString(src.resolve("Short.java"), "class S {\n}\n");
        Files.writeString(src.resolve("Table.java"), "/**\n * The ops, read as a table.\n */\n" + body);
        assertEquals(List.of("m/src/main/java/p/Long.java (" + (MAX_LINES + 1) + " lines)"),
                tooLong(root, List.of("m")));
    }

    /** The main source files of {@code modules} over {@link #MAX_LINES} that do not read as a table. */
    private static List<String> tooLong(Path root, List<String> modules) throws IOException {
        List<String> out = new ArrayList<>();
        for (String module : modules) {
            Path src = root.resolve(module).resolve("src/main/java");
            assertTrue(Files.isDirectory(src), src.toString());
            try (Stream<Path> files = Files.walk(src)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                    List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
                    if (lines.size() > MAX_LINES && lines.stream().limit(30)
                            .noneMatch(l -> TABLE_MARK.matcher(l).find())) {
                        out.add(root.relativize(f) + " (" + lines.size() + " lines)");
                    }
                }
            }
        }
        return out;
    }

    @Test
    void noDialectBorrowsFromAnother() throws IOException {
        Path dialects = TestPaths.root().resolve("model/src/main/java/dev/mgpu/dialect");
        Pattern imports = Pattern.compile("^import (static )?dev\\.mgpu\\.dialect\\.([A-Za-z0-9_]+)\\.",
                Pattern.MULTILINE);
        List<String> borrowed = new ArrayList<>();
        try (Stream<Path> files = Files.walk(dialects)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                Path rel = dialects.relativize(f);
                if (rel.getNameCount() < 2) {
                    continue;
                }
                String from = rel.getName(0).toString();
                Matcher m = imports.matcher(Files.readString(f, StandardCharsets.UTF_8));
                while (m.find()) {
                    String to = m.group(2);
                    if (!to.equals(from) && !DIALECT_DEPENDENCIES.containsKey(from + " -> " + to)) {
                        borrowed.add(rel + " imports dev.mgpu.dialect." + to);
                    }
                }
            }
        }
        assertEquals(List.of(), borrowed, "Dialects that import another dialect (move what they share to"
                + " dev.mgpu.op or dev.mgpu.text, or list the pair with its reason)");
        classes().that().resideInAPackage("dev.mgpu.dialect..").should(useNoOtherDialect())
                .check(new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .importPackages("dev.mgpu.dialect"));
    }

    private static ArchCondition<JavaClass> useNoOtherDialect() {
        return new ArchCondition<>("use no other dialect's package, except " + DIALECT_DEPENDENCIES.keySet()) {
            @Override
            public void check(JavaClass c, ConditionEvents events) {
                String from = dialectOf(c.getPackageName());
                if (from == null) {
                    return;
                }
                for (Dependency d : c.getDirectDependenciesFromSelf()) {
                    String to = dialectOf(d.getTargetClass().getPackageName());
                    if (to != null && !to.equals(from) && !DIALECT_DEPENDENCIES.containsKey(from + " -> " + to)) {
                        events.add(SimpleConditionEvent.violated(d, d.getDescription()));
                    }
                }
            }
        };
    }

    /** The dialect of a package under {@code dev.mgpu.dialect}, or null for any other package. */
    private static String dialectOf(String pkg) {
        Matcher m = DIALECT.matcher(pkg);
        return m.matches() ? m.group(1) : null;
    }
}
