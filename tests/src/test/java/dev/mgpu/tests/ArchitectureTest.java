package dev.mgpu.tests;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layers of mgpu, as rules that fail the build when code crosses them: the IR at the bottom, then the
 * asm interfaces, the op definition API, the dialects, the verifier and the text reader and writer, then
 * codegen, then the tools. No package depends on itself through another, and no internal package is
 * reached from outside its module or named by a public signature.
 */
class ArchitectureTest {
    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.mgpu");
    }

    @Test
    void layersDependOnlyDownwards() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("ir").definedBy("dev.mgpu.ir")
                .layer("text").definedBy("dev.mgpu.text")
                .layer("op").definedBy("dev.mgpu.op")
                .layer("dialect").definedBy("dev.mgpu.dialect..")
                .layer("verify").definedBy("dev.mgpu.verify")
                .layer("mlir").definedBy("dev.mgpu.mlir..")
                .layer("codegen").definedBy("dev.mgpu.codegen..")
                .layer("tools").definedBy("dev.mgpu.tools..")
                .whereLayer("tools").mayNotBeAccessedByAnyLayer()
                .whereLayer("codegen").mayOnlyBeAccessedByLayers("tools")
                .whereLayer("mlir").mayOnlyBeAccessedByLayers("codegen", "tools")
                .whereLayer("verify").mayOnlyBeAccessedByLayers("codegen", "tools")
                .whereLayer("dialect").mayOnlyBeAccessedByLayers("verify", "mlir", "codegen", "tools")
                .whereLayer("op").mayOnlyBeAccessedByLayers("dialect", "verify", "mlir", "codegen", "tools")
                .whereLayer("text").mayOnlyBeAccessedByLayers("op", "dialect", "mlir", "codegen", "tools")
                .check(classes);
    }

    /**
     * Codegen's implementation in layers: the pipeline (kernel compilation, outlining, the op table) over
     * the targets, over the kernel translators, over the translators that host code and kernels share (with
     * the runtime calls of host code), over the module translation and the target contract, over LLVM's
     * plumbing (target machines, passes, emission, the artifact's tools).
     */
    @Test
    void codegenLayersDependOnlyDownwards() {
        String in = "dev.mgpu.codegen.internal";
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("pipeline").definedBy(in)
                .layer("device").definedBy(in + ".device..")
                .layer("kernel").definedBy(in + ".kernel")
                .layer("host").definedBy(in + ".host")
                .layer("translate").definedBy(in + ".translate")
                .layer("llvm").definedBy(in + ".llvm")
                .whereLayer("pipeline").mayNotBeAccessedByAnyLayer()
                .whereLayer("device").mayOnlyBeAccessedByLayers("pipeline")
                .whereLayer("kernel").mayOnlyBeAccessedByLayers("pipeline", "device")
                .whereLayer("host").mayOnlyBeAccessedByLayers("pipeline", "device", "kernel")
                .whereLayer("translate").mayOnlyBeAccessedByLayers("pipeline", "device", "kernel", "host")
                .whereLayer("llvm").mayOnlyBeAccessedByLayers("pipeline", "device", "kernel", "host", "translate")
                .check(classes);
    }

    /**
     * A target is reached through {@code DeviceTarget} alone: only the factory that picks a target's class
     * for its attribute names one, and no target knows another.
     */
    @Test
    void targetsAreReachedThroughTheirInterface() {
        for (String target : List.of("nvptx", "amdgpu", "cpu")) {
            String pkg = "dev.mgpu.codegen.internal.device." + target + "..";
            noClasses().that().resideOutsideOfPackage(pkg)
                    .and().doNotHaveFullyQualifiedName("dev.mgpu.codegen.internal.DeviceTargets")
                    .should().dependOnClassesThat().resideInAPackage(pkg).check(classes);
        }
    }

    /**
     * Inside each of codegen's packages, classes that use one another form groups of at most three (the
     * module translation, the target contract and the types are one such group): a larger circle is an idea
     * that two files share without saying so.
     */
    @Test
    void codegenClassCirclesAreSmall() {
        Map<String, Set<String>> uses = new TreeMap<>();
        for (JavaClass c : classes) {
            if (!c.getPackageName().startsWith("dev.mgpu.codegen") || c.getEnclosingClass().isPresent()) {
                continue;
            }
            Set<String> out = uses.computeIfAbsent(c.getName(), k -> new TreeSet<>());
            c.getDirectDependenciesFromSelf().forEach(d -> {
                JavaClass target = d.getTargetClass().getBaseComponentType();
                while (target.getEnclosingClass().isPresent()) {
                    target = target.getEnclosingClass().get();
                }
                if (target.getPackageName().equals(c.getPackageName()) && !target.getName().equals(c.getName())) {
                    out.add(target.getName());
                }
            });
        }
        List<Set<String>> large = new ArrayList<>();
        for (Set<String> circle : stronglyConnected(uses)) {
            if (circle.size() > 3) {
                large.add(circle);
            }
        }
        assertEquals(List.of(), large);
    }

    /** The strongly connected components of {@code graph} (Tarjan's algorithm). */
    private static List<Set<String>> stronglyConnected(Map<String, Set<String>> graph) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new HashSet<>();
        List<Set<String>> out = new ArrayList<>();
        for (String v : graph.keySet()) {
            if (!index.containsKey(v)) {
                connect(v, graph, index, low, stack, onStack, out);
            }
        }
        return out;
    }

    private static void connect(String v, Map<String, Set<String>> graph, Map<String, Integer> index,
            Map<String, Integer> low, Deque<String> stack, Set<String> onStack, List<Set<String>> out) {
        index.put(v, index.size());
        low.put(v, index.get(v));
        stack.push(v);
        onStack.add(v);
        for (String w : graph.getOrDefault(v, Set.of())) {
            if (!index.containsKey(w)) {
                connect(w, graph, index, low, stack, onStack, out);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (onStack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            Set<String> circle = new TreeSet<>();
            String w;
            do {
                w = stack.pop();
                onStack.remove(w);
                circle.add(w);
            } while (!w.equals(v));
            out.add(circle);
        }
    }

    @Test
    void noCyclesBetweenAreas() {
        slices().matching("dev.mgpu.(*)..").should().beFreeOfCycles().check(classes);
    }

    /**
     * Between single packages, the one two-way edge allowed is an {@code internal} package using the
     * public types of the package it implements (the facade calls the implementation, which takes the
     * facade's options and results, and the handler-level API that code generators call too).
     */
    @Test
    void noPackageCycles() {
        slices().matching("dev.mgpu.(**)").should().beFreeOfCycles()
                .ignoreDependency(JavaClass.Predicates.resideInAPackage("dev.mgpu.codegen.internal.."),
                        JavaClass.Predicates.resideInAPackage("dev.mgpu.codegen"))
                .ignoreDependency(JavaClass.Predicates.resideInAPackage("dev.mgpu.mlir.internal"),
                        JavaClass.Predicates.resideInAPackage("dev.mgpu.mlir"))
                .check(classes);
    }

    /** The implementation never calls back into the facade that called it. */
    @Test
    void implementationDoesNotReachTheFacade() {
        noClasses().that().resideInAPackage("dev.mgpu.codegen.internal..").should().dependOnClassesThat()
                .haveFullyQualifiedName("dev.mgpu.codegen.Mgpu").check(classes);
        noClasses().that().resideInAPackage("dev.mgpu.mlir.internal..").should().dependOnClassesThat()
                .haveFullyQualifiedName("dev.mgpu.mlir.MlirParser").check(classes);
    }

    @Test
    void internalPackagesStayInTheirModule() {
        noClasses().that().resideOutsideOfPackage("dev.mgpu.mlir..").should().dependOnClassesThat()
                .resideInAPackage("dev.mgpu.mlir.internal..").check(classes);
        noClasses().that().resideOutsideOfPackage("dev.mgpu.codegen..").should().dependOnClassesThat()
                .resideInAPackage("dev.mgpu.codegen.internal..").check(classes);
        noClasses().that().resideInAPackage("dev.mgpu.dialect..").should().dependOnClassesThat()
                .resideInAPackage("..internal..").check(classes);
    }

    @Test
    void publicSignaturesNameNoInternalType() {
        methods().that().arePublic().and().areDeclaredInClassesThat().arePublic()
                .and().areDeclaredInClassesThat().resideOutsideOfPackage("..internal..")
                .should(nameNoInternalType()).check(classes);
    }

    private static ArchCondition<JavaMethod> nameNoInternalType() {
        return new ArchCondition<>("name no type of an internal package") {
            @Override
            public void check(JavaMethod m, ConditionEvents events) {
                List<JavaClass> named = new ArrayList<>(m.getRawParameterTypes());
                named.add(m.getRawReturnType());
                for (JavaClass c : named) {
                    if (c.getPackageName().contains(".internal")) {
                        events.add(SimpleConditionEvent.violated(m, m.getFullName() + " names " + c.getName()));
                    }
                }
            }
        };
    }

    /**
     * Every package of every module's main sources (the examples' too) says what it is for in a
     * package-info.java: a javadoc comment of at least one sentence, before the package's own declaration.
     */
    @Test
    void everyMainPackageIsDescribed() throws java.io.IOException {
        java.nio.file.Path root = TestPaths.root();
        List<java.nio.file.Path> sourceRoots;
        sourceRoots = TestPaths.sourceFiles(root, 5, p -> p.endsWith(java.nio.file.Path.of("src", "main", "java")));
        Set<String> modules = new TreeSet<>();
        List<String> problems = new ArrayList<>();
        for (java.nio.file.Path src : sourceRoots) {
            modules.add(root.relativize(src).getName(0).toString());
            Set<java.nio.file.Path> packages = new TreeSet<>();
            try (var walk = java.nio.file.Files.walk(src)) {
                walk.filter(p -> p.toString().endsWith(".java")).map(java.nio.file.Path::getParent)
                        .filter(d -> !d.equals(src)).forEach(packages::add);
            }
            for (java.nio.file.Path dir : packages) {
                String name = src.relativize(dir).toString().replace(java.io.File.separatorChar, '.');
                java.nio.file.Path info = dir.resolve("package-info.java");
                if (!java.nio.file.Files.exists(info)) {
                    problems.add(root.relativize(dir) + ": no package-info.java");
                    continue;
                }
                String text = java.nio.file.Files.readString(info);
                int end = text.indexOf("*/");
                String doc = end < 0 ? "" : text.substring(0, end).replaceAll("(?m)^\\s*/?\\*+", " ").strip();
                if (!text.startsWith("/**") || doc.length() < 60 || !doc.contains(".")
                        || !text.substring(end).contains("\npackage " + name + ";")) {
                    problems.add(root.relativize(info) + ": must describe package " + name + " in a javadoc comment");
                }
            }
        }
        assertEquals(List.of(), problems);
        assertTrue(modules.containsAll(Set.of("model", "codegen", "tools", "bench", "examples")), modules.toString());
    }
}
