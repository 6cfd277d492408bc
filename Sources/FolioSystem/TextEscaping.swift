/// Names are data: a file name printed in text must not clear a terminal, move its
/// cursor or forge a report line. One function escapes them, for every text output;
/// JSON output has its own escaping and does not use it.
public enum TextEscaping {
    /// `name` with each control character written out: C0 (newline and tab included)
    /// and DEL as `\xHH`, C1 as `\u{HH}`. Names that were not UTF-8 already come with
    /// their bad bytes as `\xHH` (``Syscall/escapedName(_:)``).
    public static func name(_ name: String) -> String { escaped(name, keepingLineBreaks: false) }

    /// A whole message (Folio's own lines joined by newlines, with names in it): every
    /// control character escaped but the newlines and tabs Folio put there — the last
    /// guard, should a name reach a message unescaped.
    public static func text(_ text: String) -> String { escaped(text, keepingLineBreaks: true) }

    private static func escaped(_ text: String, keepingLineBreaks: Bool) -> String {
        guard text.unicodeScalars.contains(where: { needsEscape($0, keepingLineBreaks) }) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar, keepingLineBreaks) else {
                out.unicodeScalars.append(scalar)
                continue
            }
            let hex = String(scalar.value, radix: 16, uppercase: true)
            out += scalar.value < 0x80 ? "\\x" + (hex.count == 1 ? "0" + hex : hex) : "\\u{" + hex + "}"
        }
        return out
    }

    private static func needsEscape(_ scalar: Unicode.Scalar, _ keepingLineBreaks: Bool) -> Bool {
        let value = scalar.value
        if keepingLineBreaks && (value == 0x0A || value == 0x09) { return false }
        return value < 0x20 || value == 0x7F || (0x80...0x9F).contains(value)
    }
}
