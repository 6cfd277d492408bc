#if canImport(Darwin)
import Darwin

// The calls only Apple platforms have, wrapped as every other (this file is compiled
// only there).
extension Syscall {
    /// `open(…, O_EVTONLY)` of the folder `folder`: a descriptor to watch it through,
    /// which does not keep its volume from being unmounted. Opened below its root as
    /// every path is (a path given whole would follow a link that replaced a folder on
    /// the way); the root itself from its pinned descriptor.
    package static func openForEvents(_ folder: RootedPath) throws(SystemError) -> Int32 {
        let flags = O_EVTONLY | O_CLOEXEC | O_NOFOLLOW | O_DIRECTORY
        guard !folder.relative.isRoot else {
            return try retrying(.open, folder.path) { openat(folder.folder.descriptor, ".", flags) }
        }
        return try folder.withParent { (directory, name) throws(SystemError) in
            try retrying(.open, folder.path) { openat(directory, name, flags) }
        }
    }
}
#endif
