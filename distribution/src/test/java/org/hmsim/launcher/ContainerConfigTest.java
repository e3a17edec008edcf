package org.hmsim.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ContainerConfigTest {
    @TempDir Path home;

    @Test
    void placeholdersResolveToTheInstallationAndTheLauncherOwnsStorageAndPlugins() throws Exception {
        Files.createDirectories(home.resolve("conf"));
        Files.writeString(home.resolve("conf/config.properties"), String.join("\n",
                "felix.log.level=1",
                "hmsim.example=${hmsim.home}/examples",
                "felix.fileinstall.dir=/somewhere/else",
                "org.osgi.framework.storage=/not/here",
                "kept=${no.such.variable}"));
        Path plugins = home.resolve("p");
        Path storage = home.resolve("cache");

        Map<String, String> p = ContainerConfig.frameworkProperties(home, plugins, storage, Map.of("felix.log.level", "4"));

        assertEquals(home + "/examples", p.get("hmsim.example"));
        assertEquals(plugins.toString(), p.get("felix.fileinstall.dir"));
        assertEquals(storage.toString(), p.get("org.osgi.framework.storage"));
        assertEquals("onFirstInit", p.get("org.osgi.framework.storage.clean"));
        assertEquals("false", p.get("felix.bootdelegation.implicit"), "set even when the file forgets it");
        assertEquals("4", p.get("felix.log.level"), "explicit properties win over the file");
        assertEquals("${no.such.variable}", p.get("kept"));
    }
}
