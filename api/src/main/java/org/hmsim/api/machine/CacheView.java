package org.hmsim.api.machine;

/** A cache as policies and reports see it. */
@org.osgi.annotation.versioning.ProviderType
public interface CacheView extends Component {
    int sets();

    int ways();

    int lineBytes();

    int mshrs();

    long hits();

    long misses();
}
