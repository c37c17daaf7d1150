package dev.mgpu.tests;

import dev.mgpu.dialect.gpu.ObjectFormat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.mgpu.codegen.ObjectCodes;
import dev.mgpu.ir.Attribute;
import dev.mgpu.dialect.gpu.GpuTarget;
import java.nio.file.Files;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The generator's mgpuObject codes are the ones runtime-c/include/mgpu.h declares, and no others. */
class ObjectCodesTest {
    private static final Pattern CODE = Pattern.compile("\\bMGPU_((?:KIND|FORMAT)_\\w+)\\s*=\\s*(\\d+)");

    @Test
    void codesMatchTheHeader() throws Exception {
        String header = Files.readString(TestPaths.root().resolve("runtime-c/include/mgpu.h"));
        Map<String, Integer> declared = new TreeMap<>();
        Matcher m = CODE.matcher(header);
        while (m.find()) {
            declared.put(m.group(1), Integer.parseInt(m.group(2)));
        }

        Map<String, Integer> generated = new TreeMap<>();
        generated.put("KIND_NVVM", ObjectCodes.kind(GpuTarget.NVVMTarget.of("sm_90")));
        generated.put("KIND_ROCDL", ObjectCodes.kind(GpuTarget.ROCDLTarget.of("gfx90a")));
        generated.put("KIND_CPU", ObjectCodes.kind(GpuTarget.CpuTarget.host()));
        for (ObjectFormat f : ObjectFormat.values()) {
            generated.put("FORMAT_" + f.keyword().toUpperCase(Locale.ROOT), ObjectCodes.format(f));
        }
        assertEquals(declared, generated);
    }
}
