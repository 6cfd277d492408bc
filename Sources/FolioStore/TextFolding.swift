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
        var current = ""
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                let v = scalar.value
                if (v >= 48 && v <= 57) || (v >= 97 && v <= 122) {
                    current.unicodeScalars.append(scalar)
                } else if v >= 65 && v <= 90 {
                    current.unicodeScalars.append(Unicode.Scalar(v + 32)!)
                } else if !current.isEmpty {
                    words.append(current)
                    current = ""
                }
            } else if let base = bases[scalar] {
                current += base
            } else if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                if scalar.properties.isCased {
                    current += String(scalar).lowercased()
                } else {
                    current.unicodeScalars.append(scalar)
                }
            } else if scalar.properties.generalCategory == .nonspacingMark {
                continue  // a combining accent: dropped, so decomposed text folds like composed text
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// `text` folded as one string (words joined with single spaces), for phrase checks.
    package static func folded(_ text: String) -> String { words(text).joined(separator: " ") }
}
