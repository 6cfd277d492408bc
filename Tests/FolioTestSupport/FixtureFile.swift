import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#else
#error("FixtureFile needs Glibc or Darwin")
#endif

/// A test's fixture written through a descriptor closed on exec.
///
/// `Data.write(to:)` and `String.write(to:…)` open the file without `O_CLOEXEC`: a program
/// another test starts at that moment (git, a `folio` it runs) inherits the descriptor
/// and holds the fixture open for writing for as long as it runs — and Folio rightly
/// leaves a file that is open for writing alone, so the test under way fails at random.
package enum FixtureFile {
    /// Writes `bytes` to the file at `path` (created or truncated, mode 0644), making the
    /// folders it is in.
    package static func write(_ bytes: some Collection<UInt8>, to path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(fd) }
        let contiguous = Array(bytes)
        var written = 0
        while written < contiguous.count {
            let count = contiguous.withUnsafeBytes { buffer in
                #if canImport(Glibc)
                Glibc.write(fd, buffer.baseAddress! + written, buffer.count - written)
                #else
                Darwin.write(fd, buffer.baseAddress! + written, buffer.count - written)
                #endif
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            written += count
        }
    }

    /// Writes `text` as UTF-8 to the file at `path` (see the bytes form).
    package static func write(_ text: String, to path: String) throws {
        try write(Array(text.utf8), to: path)
    }
}
