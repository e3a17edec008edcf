/**
 * The OS memory manager: named allocations, flat per-allocation page tables, frames per pool, first
 * touch through the placement slot with spill, and page migration with copy traffic and shootdowns.
 * Entry point: {@link org.hmsim.platform.memory.os.OsMemoryManager}.
 */
package org.hmsim.platform.memory.os;
