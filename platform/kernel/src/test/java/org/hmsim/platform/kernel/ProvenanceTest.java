package org.hmsim.platform.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.hmsim.platform.kernel.results.Json;
import org.hmsim.platform.kernel.results.Sha256;
import org.junit.jupiter.api.Test;

/** study.json names the machine files a study read, with their hashes: an edited preset shows in the provenance. */
class ProvenanceTest extends ResultsCli {
    @Test
    void studyJsonListsEachMachineFileOnceWithItsHash() throws Exception {
        assertEquals(0, run());
        assertEquals("", Json.read(out.resolve("study.json")).get("source_commit"), "recorded; unknown outside a bundle built from git");
        Object files = Json.read(out.resolve("study.json")).get("machine_files");
        String sha = Sha256.ofFile(dir.resolve("machines/small.yaml"));
        assertEquals(List.of(Map.of("file", dir.resolve("machines/small.yaml").toString(), "sha256", sha)), files, String.valueOf(files));
        Files.writeString(dir.resolve("machines/small.yaml"), Fakes.MACHINE + "# edited\n");
        assertEquals(0, run());
        @SuppressWarnings("unchecked")
        List<Map<String, String>> again = (List<Map<String, String>>) Json.read(out.resolve("study.json")).get("machine_files");
        assertEquals(Sha256.ofFile(dir.resolve("machines/small.yaml")), again.get(0).get("sha256"));
    }
}
