/// Resolves plain scalars by the YAML 1.2 core schema, and tells which strings a
/// YAML 1.1 reader (PyYAML, Yams, Obsidian plugins) would read as something else.
///
/// Hand-written matchers rather than `Double(String)`: that initializer accepts
/// `nan`, `inf` and `0x10`, which the core schema reads as strings.
package enum ScalarResolver {
    /// The core-schema value of a plain scalar's text.
    package static func resolvePlain(_ text: String) -> YAMLValue {
        var utf8 = Array(text.utf8)
        return utf8.withUnsafeMutableBufferPointer { resolvePlain(bytes: UnsafeBufferPointer($0), text: text) }
    }

    static func resolvePlain(bytes b: UnsafeBufferPointer<UInt8>, text: @autoclosure () -> String) -> YAMLValue {
        guard let first = b.first else { return .null }
        switch first {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
            if let number = number(b) { return number }
            if isTimestamp(b) { return .timestamp(text()) }
            return .string(text())
        case UInt8(ascii: "~"):
            return b.count == 1 ? .null : .string(text())
        case UInt8(ascii: "n"), UInt8(ascii: "N"):
            return equalsAny(b, ["null", "Null", "NULL"]) ? .null : .string(text())
        case UInt8(ascii: "t"), UInt8(ascii: "T"):
            return equalsAny(b, ["true", "True", "TRUE"]) ? .bool(true) : .string(text())
        case UInt8(ascii: "f"), UInt8(ascii: "F"):
            return equalsAny(b, ["false", "False", "FALSE"]) ? .bool(false) : .string(text())
        default:
            return .string(text())
        }
    }

    private static func equalsAny(_ b: UnsafeBufferPointer<UInt8>, _ words: [StaticString]) -> Bool {
        for word in words where word.utf8CodeUnitCount == b.count {
            let w = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
            if w.elementsEqual(b) { return true }
        }
        return false
    }

    private static func isDigit(_ c: UInt8) -> Bool { c >= 48 && c <= 57 }

    /// An int or float by the core schema, else nil.
    private static func number(_ b: UnsafeBufferPointer<UInt8>) -> YAMLValue? {
        let n = b.count
        // 0o and 0x forms take no sign.
        if n > 2 && b[0] == UInt8(ascii: "0") && (b[1] == UInt8(ascii: "o") || b[1] == UInt8(ascii: "x")) {
            let radix = b[1] == UInt8(ascii: "o") ? 8 : 16
            let digits = String(decoding: UnsafeBufferPointer(rebasing: b[2...]), as: UTF8.self)
            if let value = Int(digits, radix: radix) { return .int(value) }
            guard digits.utf8.allSatisfy({ isRadixDigit($0, radix) }) else { return nil }
            return .float(digits.utf8.reduce(0.0) { $0 * Double(radix) + Double(radixDigitValue($1)) })
        }
        var i = 0
        if b[0] == UInt8(ascii: "+") || b[0] == UInt8(ascii: "-") { i = 1 }
        let negative = b[0] == UInt8(ascii: "-")
        // .inf / .nan
        if i < n && b[i] == UInt8(ascii: ".") {
            let rest = UnsafeBufferPointer(rebasing: b[(i + 1)...])
            if equalsAny(rest, ["inf", "Inf", "INF"]) { return .float(negative ? -.infinity : .infinity) }
            if i == 0 && equalsAny(rest, ["nan", "NaN", "NAN"]) { return .float(.nan) }
        }
        let intStart = i
        while i < n && isDigit(b[i]) { i += 1 }
        let intDigits = i - intStart
        var isFloat = false
        var fracDigits = 0
        if i < n && b[i] == UInt8(ascii: ".") {
            isFloat = true
            i += 1
            while i < n && isDigit(b[i]) { i += 1; fracDigits += 1 }
        }
        if intDigits == 0 && fracDigits == 0 { return nil }
        if i < n && (b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E")) {
            isFloat = true
            i += 1
            if i < n && (b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-")) { i += 1 }
            let expStart = i
            while i < n && isDigit(b[i]) { i += 1 }
            if i == expStart { return nil }
        }
        if i != n { return nil }
        let text = String(decoding: b, as: UTF8.self)
        if !isFloat, let value = Int(text) { return .int(value) }
        // Integers too large for Int, and every float: the text is validated, so strtod is safe here.
        return Double(text).map(YAMLValue.float)
    }

    private static func isRadixDigit(_ c: UInt8, _ radix: Int) -> Bool {
        radix == 8 ? (c >= 48 && c <= 55) : (isDigit(c) || (c | 0x20 >= 97 && c | 0x20 <= 102))
    }

    private static func radixDigitValue(_ c: UInt8) -> Int {
        isDigit(c) ? Int(c - 48) : Int((c | 0x20) - 97 + 10)
    }

    /// The YAML 1.1 timestamp forms: `2026-11-30`, `2026-11-30T09:30:00Z`, `2026-11-30 09:30:00.5 +01:00`.
    static func isTimestamp(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = b.count
        func digits(_ min: Int, _ max: Int) -> Bool {
            let start = i
            while i < n && i - start < max && isDigit(b[i]) { i += 1 }
            return i - start >= min
        }
        func expect(_ c: Character) -> Bool {
            guard i < n, b[i] == c.asciiValue! else { return false }
            i += 1
            return true
        }
        guard digits(4, 4), expect("-") else { return false }
        let dateOnly = i + 5 == n
        guard digits(dateOnly ? 2 : 1, 2), expect("-"), digits(dateOnly ? 2 : 1, 2) else { return false }
        if i == n { return dateOnly }
        // Time part.
        if b[i] == UInt8(ascii: "T") || b[i] == UInt8(ascii: "t") {
            i += 1
        } else {
            let spaceStart = i
            while i < n && (b[i] == 32 || b[i] == 9) { i += 1 }
            if i == spaceStart { return false }
        }
        guard digits(1, 2), expect(":"), digits(2, 2), expect(":"), digits(2, 2) else { return false }
        if i < n && b[i] == UInt8(ascii: ".") {
            i += 1
            while i < n && isDigit(b[i]) { i += 1 }
        }
        while i < n && (b[i] == 32 || b[i] == 9) { i += 1 }
        if i == n { return true }
        if b[i] == UInt8(ascii: "Z") { return i + 1 == n }
        guard b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") else { return false }
        i += 1
        guard digits(1, 2) else { return false }
        if i < n { guard expect(":"), digits(2, 2) else { return false } }
        return i == n
    }

    /// Whether a YAML 1.1 reader would read this plain text as something other than a
    /// string: booleans such as `yes`, `no`, `on`, `off`, `y`, `n`; sexagesimal numbers
    /// such as `12:30`; `0b` and leading-zero octal integers; `1_000`; dates; `=` and `<<`.
    package static func isNonStringInYAML11(_ text: String) -> Bool {
        switch text {
        case "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO",
             "true", "True", "TRUE", "false", "False", "FALSE",
             "on", "On", "ON", "off", "Off", "OFF",
             "~", "null", "Null", "NULL", "", "=", "<<":
            return true
        default:
            break
        }
        guard let first = text.utf8.first,
              isDigit(first) || first == UInt8(ascii: "+") || first == UInt8(ascii: "-") || first == UInt8(ascii: ".")
        else { return false }
        // PyYAML's int and float resolvers (YAML 1.1). Built per call: only the emitter asks.
        let yaml11Number = #/[-+]?(?:0b[0-1_]+|0[0-7_]+|(?:0|[1-9][0-9_]*)|0x[0-9a-fA-F_]+|[1-9][0-9_]*(?::[0-5]?[0-9])+|[0-9][0-9_]*\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|\.(?:inf|Inf|INF))|\.(?:nan|NaN|NAN)/#
        if text.wholeMatch(of: yaml11Number) != nil { return true }
        var utf8 = Array(text.utf8)
        return utf8.withUnsafeMutableBufferPointer { isTimestamp(UnsafeBufferPointer($0)) }
    }
}
