package org.hmsim.itests;

import java.nio.file.Path;
import org.hmsim.launcher.Container;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fresh container for every test method — for tests that install, update or remove bundles — with its
 * own hot-deploy folder ({@link #plugins}) and a scratch folder ({@link #dir}).
 */
abstract class ContainerPerTest {
    @TempDir Path plugins;
    @TempDir Path dir;
    Container container;

    @BeforeEach
    void startContainer() throws Exception {
        container = Hmsim.start(plugins);
    }

    @AfterEach
    void stopContainer() {
        if (container != null) container.close();
    }
}
