import FolioFormat

/// A small JSON reader for expected values in test data, into ``YAMLValue`` so that
/// parses can be compared with it (numbers by value, timestamps as strings).
package struct JSONReader {
    struct Failure: Error, CustomStringConvertible { var description: String }

    private let bytes: [UInt8]
    private var i = 0

    /// Every JSON value in `text`, one after another (a stream of several documents).
    package static func values(_ text: String) throws -> [YAMLValue] {
        var reader = JSONReader(bytes: Array(text.utf8))
        var out: [YAMLValue] = []
        reader.skipSpace()
        while reader.i < reader.bytes.count {
            out.append(try reader.value())
            reader.skipSpace()
        }
        return out
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private mutating func skipSpace() {
        while i < bytes.count && [32, 9, 10, 13].contains(bytes[i]) { i += 1 }
    }

    private mutating func value() throws -> YAMLValue {
        skipSpace()
        guard i < bytes.count else { throw Failure(description: "unexpected end of JSON") }
        switch bytes[i] {
        case UInt8(ascii: "{"):
            i += 1
            var mapping = YAMLMapping()
            skipSpace()
            if bytes[i] == UInt8(ascii: "}") { i += 1; return .mapping(mapping) }
            while true {
                skipSpace()
                let key = try string()
                skipSpace()
                try expect(":")
                mapping.entries.append(.init(key: key, value: try value()))
                skipSpace()
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                try expect("}")
                return .mapping(mapping)
            }
        case UInt8(ascii: "["):
            i += 1
            var items: [YAMLValue] = []
            skipSpace()
            if bytes[i] == UInt8(ascii: "]") { i += 1; return .sequence(items) }
            while true {
                items.append(try value())
                skipSpace()
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                try expect("]")
                return .sequence(items)
            }
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"): i += 4; return .bool(true)
        case UInt8(ascii: "f"): i += 5; return .bool(false)
        case UInt8(ascii: "n"): i += 4; return .null
        default:
            let start = i
            while i < bytes.count && "+-0123456789.eE".utf8.contains(bytes[i]) { i += 1 }
            let text = String(decoding: bytes[start..<i], as: UTF8.self)
            if let int = Int(text) { return .int(int) }
            if let double = Double(text) { return .float(double) }
            throw Failure(description: "bad JSON number '\(text)'")
        }
    }

    private mutating func expect(_ c: Character) throws {
        guard i < bytes.count, bytes[i] == c.asciiValue! else { throw Failure(description: "expected '\(c)' at \(i)") }
        i += 1
    }

    private mutating func string() throws -> String {
        try expect("\"")
        var out: [UInt8] = []
        while bytes[i] != UInt8(ascii: "\"") {
            if bytes[i] == UInt8(ascii: "\\") {
                i += 1
                let c = bytes[i]
                i += 1
                switch c {
                case UInt8(ascii: "n"): out.append(10)
                case UInt8(ascii: "t"): out.append(9)
                case UInt8(ascii: "r"): out.append(13)
                case UInt8(ascii: "b"): out.append(8)
                case UInt8(ascii: "f"): out.append(12)
                case UInt8(ascii: "u"):
                    var code = UInt32(String(decoding: bytes[i..<i + 4], as: UTF8.self), radix: 16)!
                    i += 4
                    if code >= 0xD800 && code < 0xDC00 && bytes[i] == UInt8(ascii: "\\") {
                        let low = UInt32(String(decoding: bytes[i + 2..<i + 6], as: UTF8.self), radix: 16)!
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        i += 6
                    }
                    out += Array(String(Character(Unicode.Scalar(code)!)).utf8)
                default: out.append(c)
                }
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        i += 1
        return String(decoding: out, as: UTF8.self)
    }
}

extension YAMLValue {
    /// Equality as JSON sees it: numbers by value, timestamps as strings; with
    /// `ordered: false`, mappings equal whatever their key order.
    package func sameAsJSON(_ other: YAMLValue, ordered: Bool = true) -> Bool {
        switch (self, other) {
        case (.int(let a), .float(let b)), (.float(let b), .int(let a)): return Double(a) == b
        case (.float(let a), .float(let b)): return a == b || (a.isNaN && b.isNaN)
        case (.timestamp(let a), .string(let b)), (.string(let a), .timestamp(let b)): return a == b
        case (.sequence(let a), .sequence(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.sameAsJSON($1, ordered: ordered) }
        case (.mapping(let a), .mapping(let b)) where !ordered:
            return a.count == b.count
                && a.entries.allSatisfy { entry in b[entry.key].map { entry.value.sameAsJSON($0, ordered: false) } ?? false }
        case (.mapping(let a), .mapping(let b)):
            return a.count == b.count
                && zip(a.entries, b.entries).allSatisfy { $0.key == $1.key && $0.value.sameAsJSON($1.value) }
        default: return self == other
        }
    }
}
