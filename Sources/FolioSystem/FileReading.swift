/// Reading whole files.
public enum FileReading {
    /// The bytes of the file at `path`.
    public static func contents(of path: String) throws(SystemError) -> [UInt8] {
        let fd = try Syscall.openForReading(path)
        defer { Syscall.close(fd) }
        let size = Int(try Syscall.status(of: fd, path: path).st_size)
        var bytes = [UInt8](repeating: 0, count: max(size, 0) + 1)
        var count = 0
        while true {
            if count == bytes.count { bytes.append(contentsOf: repeatElement(0, count: max(bytes.count, 4096))) }
            let result = bytes.withUnsafeMutableBytes { raw in
                Result { () throws(SystemError) in
                    try Syscall.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: raw[count...]), path: path)
                }
            }
            let got = try result.get()
            if got == 0 { break }
            count += got
        }
        bytes.removeSubrange(count...)
        return bytes
    }
}
