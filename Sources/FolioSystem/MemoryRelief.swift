#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("Folio needs Glibc, Musl or Darwin")
#endif
import CFolioSystem

extension Syscall {
    /// Gives the memory the allocator holds free back to the system (`malloc_trim` with
    /// glibc, `malloc_zone_pressure_relief` on Darwin; nothing with musl). Called after
    /// the store swaps a large structure for a compact one: the freed pages would
    /// otherwise stay resident in a process that runs for weeks.
    package static func releaseFreeMemory() {
        #if canImport(Darwin)
        _ = malloc_zone_pressure_relief(nil, 0)
        #else
        folio_release_free_memory()
        #endif
    }
}
