/**
 * Point-to-point links with two independent directions, flit/header overhead, bounded queues and
 * fixed latency. Entry point: {@link org.hmsim.platform.memory.link.Link#port}.
 */
package org.hmsim.platform.memory.link;
