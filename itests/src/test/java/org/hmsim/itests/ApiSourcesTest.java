package org.hmsim.itests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import org.junit.jupiter.api.Test;

/**
 * A mechanism built outside hmsim compiles against the api jar from {@code ~/.m2}, which held classes only: its author
 * saw the contracts through javap, without parameter names or javadoc (found by a bundle-author walkthrough). The build
 * now installs {@code hmsim-api-<version>-sources.jar} beside it, which IDEs attach; it holds the source of every type of
 * the api jar, and the api jar itself stays classes only.
 */
class ApiSourcesTest {
    @Test
    void theApiIsBuiltWithASourcesJarHoldingEveryTypesSource() throws Exception {
        Path target = Hmsim.examples().resolveSibling("api").resolve("target");
        Path jar, sources;
        try (Stream<Path> s = Files.list(target)) {
            jar = s.filter(p -> p.getFileName().toString().matches("hmsim-api-.*\\d(-SNAPSHOT)?\\.jar")).findFirst().orElseThrow(
                    () -> new AssertionError("no api jar in " + target));
        }
        sources = jar.resolveSibling(jar.getFileName().toString().replace(".jar", "-sources.jar"));
        assertTrue(Files.isRegularFile(sources), "the sources jar beside " + jar);

        Set<String> types = new TreeSet<>(), documented = new TreeSet<>();
        try (ZipFile z = new ZipFile(jar.toFile())) {
            z.stream().map(ZipEntry::getName).forEach(n -> {
                assertTrue(!n.endsWith(".java"), "the api bundle carries no sources: " + n);
                if (n.endsWith(".class") && !n.contains("$")) types.add(n.substring(0, n.length() - ".class".length()));
            });
        }
        try (ZipFile z = new ZipFile(sources.toFile())) {
            z.stream().map(ZipEntry::getName).filter(n -> n.endsWith(".java"))
                    .forEach(n -> documented.add(n.substring(0, n.length() - ".java".length())));
            String residency = new String(z.getInputStream(z.getEntry("org/hmsim/api/policy/ResidencyPolicy.java")).readAllBytes(),
                    java.nio.charset.StandardCharsets.UTF_8);
            assertTrue(residency.contains("long chooseVictim(int pool)") && residency.contains("/**"), residency);
        }
        assertTrue(types.size() > 20, types::toString);
        assertEquals(types, documented, "a source for every type of the api jar (and its package-info: the package versions)");
    }
}
