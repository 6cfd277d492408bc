/// Case- and diacritic-insensitive words, so that `uova` finds "Uova" and `perche` finds "perché".
package enum TextFolding {
    /// Latin letters with diacritics and their base letters (Latin-1 Supplement and Latin Extended-A).
    static let bases: [Unicode.Scalar: String] = {
        let table: [(String, String)] = [
            ("àáâãäåāăą", "a"), ("çćĉċč", "c"), ("ďđ", "d"), ("èéêëēĕėęě", "e"), ("ĝğġģ", "g"), ("ĥħ", "h"),
            ("ìíîïĩīĭįı", "i"), ("ĵ", "j"), ("ķ", "k"), ("ĺļľŀł", "l"), ("ñńņňŉ", "n"), ("òóôõöøōŏő", "o"),
            ("ŕŗř", "r"), ("śŝşš", "s"), ("ţťŧ", "t"), ("ùúûüũūŭůűų", "u"), ("ŵ", "w"), ("ýÿŷ", "y"), ("źżž", "z"),
            ("æ", "ae"), ("œ", "oe"), ("ß", "ss"),
        ]
        var map: [Unicode.Scalar: String] = [:]
        for (letters, base) in table {
            for scalar in letters.unicodeScalars {
                map[scalar] = base
                for upper in String(scalar).uppercased().unicodeScalars where upper != scalar { map[upper] = base }
            }
        }
        return map
    }()

    /// The folded words of `text`, in order (letters and digits; everything else separates).
    package static func words(_ text: String) -> [String] {
        var words: [String] = []
        forEachWord(text) { words.append($0) }
        return words
    }

    /// Calls `body` with each folded word of `text`. ASCII goes byte by byte; other
    /// letters are folded through the table above or lowercased.
    package static func forEachWord(_ text: String, _ body: (String) -> Void) {
        var current: [UInt8] = []
        current.reserveCapacity(32)
        func flush() {
            if !current.isEmpty {
                body(String(decoding: current, as: UTF8.self))
                current.removeAll(keepingCapacity: true)
            }
        }
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if v < 0x80 {
                if (v >= 48 && v <= 57) || (v >= 97 && v <= 122) {
                    current.append(UInt8(v))
                } else if v >= 65 && v <= 90 {
                    current.append(UInt8(v + 32))
                } else {
                    flush()
                }
            } else if let base = bases[scalar] {
                current.append(contentsOf: base.utf8)
            } else if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                let folded = scalar.properties.isCased ? String(scalar).lowercased() : String(scalar)
                current.append(contentsOf: folded.utf8)
            } else if scalar.properties.generalCategory != .nonspacingMark {
                // A combining accent is dropped, so decomposed text folds like composed text.
                flush()
            }
        }
        flush()
    }

    /// `text` folded as one string (words joined with single spaces), for phrase checks.
    package static func folded(_ text: String) -> String { words(text).joined(separator: " ") }
}
