#if canImport(Glibc)
import Foundation
import Glibc
import FolioSystem

/// Every open and read of a file or folder in the canary folders, as inotify sees them
/// (whoever makes it, however it got there: a path through a link included), and
/// whether an inotify instance of this process watches one of them.
package final class CanaryOpens {
    private let fd: Int32
    private let folders: [String]
    private var watches: Set<Int32> = []

    /// Watches `folders` (absolute) for opens and reads.
    package init(_ folders: [String]) throws {
        self.folders = folders
        fd = try Inotify.initialize()
        Self.lock.withLock { _ = Self.canaryDescriptors.insert(fd) }
        for folder in folders {
            watches.insert(try Inotify.addWatch(fd, folder, mask: UInt32(IN_OPEN | IN_ACCESS | IN_ONLYDIR)))
        }
    }

    deinit {
        Self.lock.withLock { _ = Self.canaryDescriptors.remove(fd) }
        Syscall.close(fd)
    }

    // Safe: read and written only while holding `lock`.
    nonisolated(unsafe) private static var canaryDescriptors: Set<Int32> = []
    private static let lock = NSLock()

    /// The opens and reads seen since the last call, as `FOLDER/NAME`.
    package func drain() -> [String] {
        var seen: [String] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 8)
        defer { buffer.deallocate() }
        while let count = try? Inotify.read(fd, into: buffer), count > 0 {
            for event in InotifyEvent.decode(UnsafeRawBufferPointer(rebasing: buffer[..<count])) {
                let folder = folders[Int(event.watch) - 1]
                seen.append(event.name.isEmpty ? folder : folder + "/" + event.name)
            }
        }
        return seen
    }

    /// Those of `folders` an inotify instance of this process watches, canaries' own
    /// aside (from `/proc/self/fdinfo`: each watch's inode).
    package static func watchedInThisProcess(_ folders: [String]) -> [String] {
        var inodes: [String: String] = [:]
        for folder in folders {
            var status = stat()
            guard lstat(folder, &status) == 0 else { continue }
            inodes[String(UInt64(status.st_ino), radix: 16)] = folder
        }
        var found: [String] = []
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fdinfo")) ?? []
        let own = lock.withLock { canaryDescriptors }
        for name in descriptors where !own.contains(Int32(name) ?? -1) {
            guard let info = try? String(contentsOfFile: "/proc/self/fdinfo/" + name, encoding: .utf8) else { continue }
            for line in info.split(separator: "\n") where line.hasPrefix("inotify wd:") {
                guard let field = line.split(separator: " ").first(where: { $0.hasPrefix("ino:") }) else { continue }
                if let folder = inodes[String(field.dropFirst(4))] { found.append(folder) }
            }
        }
        return found
    }
}
#endif
