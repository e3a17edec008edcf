package org.hmsim.api.machine;

/** A memory pool's controllers as policies see them: traffic served so far, per channel. */
@org.osgi.annotation.versioning.ProviderType
public interface DramView extends Component {
    PoolInfo info();

    /** Bytes read and written by the pool's channels since the start of the run. */
    long bytesServed();

    long bytesServed(int channel);
}
