package org.hmsim.itests;

import java.nio.file.Path;
import org.hmsim.launcher.Container;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * One container shared by a test class's methods — for tests that only run commands — with its own
 * hot-deploy folder ({@link #plugins}). A subclass's own {@code @BeforeAll} runs after the container is up.
 */
abstract class ContainerPerClass {
    @TempDir static Path plugins;
    static Container container;

    @BeforeAll
    static void startContainer() throws Exception {
        container = Hmsim.start(plugins);
    }

    @AfterAll
    static void stopContainer() {
        if (container != null) container.close();
        container = null;
    }
}
