#if canImport(Darwin)
import Darwin

// The calls only Apple platforms have, wrapped as every other (this file is compiled
// only there).
extension Syscall {
    /// `open(path, O_EVTONLY)`: a descriptor to watch a file or folder through, which
    /// does not keep its volume from being unmounted.
    package static func openForEvents(_ path: String) throws(SystemError) -> Int32 {
        try retrying(.open, path) { open(path, O_EVTONLY | O_CLOEXEC | O_NOFOLLOW) }
    }
}
#endif
