/// A file's bytes cut into lines the way git's xdiff cuts them: each line keeps its
/// terminating `\n` (a `\r` before it stays part of the line), and a last line
/// without one is a line too. Equal lines get equal class numbers, so comparing two
/// lines is comparing two integers.
struct LineFile {
    /// The bytes.
    let bytes: [UInt8]
    /// Each line's byte range.
    let lines: [Range<Int>]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var lines: [Range<Int>] = []
        var start = 0
        bytes.withUnsafeBufferPointer { buffer in
            for index in 0..<buffer.count where buffer[index] == 10 {
                lines.append(start..<(index + 1))
                start = index + 1
            }
        }
        if start < bytes.count { lines.append(start..<bytes.count) }
        self.lines = lines
    }

    var count: Int { lines.count }

    /// The bytes of line `index`.
    func line(_ index: Int) -> ArraySlice<UInt8> { bytes[lines[index]] }

    /// Whether line `index` ends with `\r\n` (xdiff's test for a CRLF line).
    func endsWithCRLF(_ index: Int) -> Bool {
        let range = lines[index]
        return range.count > 1 && bytes[range.upperBound - 1] == 10 && bytes[range.upperBound - 2] == 13
    }
}

/// Numbers distinct lines across the files of one comparison, so that equal lines
/// (byte for byte) share a number: an open-addressing table over FNV-1a hashes of
/// the lines' bytes (hashing byte slices through `Hasher` was most of a large merge's time).
struct LineClassifier {
    private var slots = [Int32](repeating: -1, count: 1024)
    /// Each class's hash and a line holding it (file, range).
    private var hashes: [UInt64] = []
    private var samples: [(bytes: [UInt8], range: Range<Int>)] = []
    /// How many lines of each class the first and the second file hold.
    private(set) var countInFirst: [Int] = []
    private(set) var countInSecond: [Int] = []

    /// The class of each line of `file`, counted as the first or second file.
    mutating func classify(_ file: LineFile, asFirst: Bool) -> [Int] {
        var classes = [Int](repeating: 0, count: file.count)
        file.bytes.withUnsafeBufferPointer { bytes in
            for (index, range) in file.lines.enumerated() {
                var hash: UInt64 = 0xcbf2_9ce4_8422_2325
                for i in range { hash = (hash ^ UInt64(bytes[i])) &* 0x100_0000_01b3 }
                let number = find(hash, bytes, range, in: file.bytes)
                if asFirst { countInFirst[number] += 1 } else { countInSecond[number] += 1 }
                classes[index] = number
            }
        }
        return classes
    }

    private mutating func find(_ hash: UInt64, _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, in array: [UInt8]) -> Int {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
        while slots[slot] >= 0 {
            let number = Int(slots[slot])
            if hashes[number] == hash {
                let sample = samples[number]
                if sample.range.count == range.count
                    && sample.bytes.withUnsafeBufferPointer({ Self.same($0, sample.range.lowerBound, bytes, range.lowerBound, range.count) })
                {
                    return number
                }
            }
            slot = (slot + 1) & mask
        }
        let number = hashes.count
        slots[slot] = Int32(number)
        hashes.append(hash)
        samples.append((array, range))
        countInFirst.append(0)
        countInSecond.append(0)
        if hashes.count * 2 > slots.count { grow() }
        return number
    }

    @inline(__always)
    private static func same(_ a: UnsafeBufferPointer<UInt8>, _ i: Int, _ b: UnsafeBufferPointer<UInt8>, _ j: Int, _ count: Int) -> Bool {
        var k = 0
        while k < count {
            if a[i + k] != b[j + k] { return false }
            k += 1
        }
        return true
    }

    private mutating func grow() {
        slots = [Int32](repeating: -1, count: slots.count * 2)
        let mask = slots.count - 1
        for (number, hash) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(number)
        }
    }
}
