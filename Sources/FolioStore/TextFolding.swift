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

    /// The distinct folded words of valid UTF-8 bytes, deduplicated on their bytes with
    /// a small open-addressing table before any `String` is made (most words of a body
    /// repeat); and, into `pairs` when given, the hash of every adjacent word pair
    /// (``pairHash(_:_:)``), repeats included, for phrase queries.
    package static func uniqueWords(utf8 bytes: UnsafeBufferPointer<UInt8>, into words: inout [String], pairs: UnsafeMutablePointer<[UInt64]>? = nil) {
        uniqueWordSpans(utf8: bytes, pairs: pairs) { spans in
            words.reserveCapacity(words.count + spans.count)
            for span in spans { words.append(String(decoding: span.bytes, as: UTF8.self)) }
        }
    }

    /// The word index's key for a folded word: its FNV-1a hash, as
    /// ``uniqueWordHashes(utf8:into:pairs:)`` gives it (64 bits: a collision between two
    /// of a million distinct words is about a one-in-thirty-million event).
    package static func wordHash(_ folded: String) -> UInt64 { fnv(ArraySlice(Array(folded.utf8))) }

    /// ``uniqueWords(utf8:into:pairs:)``, each distinct word as its ``wordHash(_:)``:
    /// no `String` made, and a word index keyed by integers (a string hashed per word
    /// per record, and again per chunk merged, was a sixth of a load).
    package static func uniqueWordHashes(utf8 bytes: UnsafeBufferPointer<UInt8>, into hashes: inout [UInt64], pairs: UnsafeMutablePointer<[UInt64]>? = nil) {
        uniqueWordSpans(utf8: bytes, pairs: pairs) { spans in
            hashes.reserveCapacity(hashes.count + spans.count)
            for span in spans { hashes.append(span.hash) }
        }
    }

    /// The distinct folded words of `bytes` as spans of a scratch arena (valid only
    /// inside `body`) with their FNV-1a hashes; pairs as ``uniqueWords(utf8:into:pairs:)``.
    private static func uniqueWordSpans(
        utf8 bytes: UnsafeBufferPointer<UInt8>, pairs: UnsafeMutablePointer<[UInt64]>?,
        _ body: ([(bytes: UnsafeBufferPointer<UInt8>, hash: UInt64)]) -> Void
    ) {
        // One pass over the bytes: fold into a raw arena while hashing the word (FNV-1a),
        // and the word as the second of a pair, seeded by the previous word and a space.
        let capacity = bytes.count * 3 + 64
        let arena = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { arena.deallocate() }
        var w = 0
        var wordStart = 0
        let basis: UInt64 = 0xcbf2_9ce4_8422_2325
        var hash = basis
        var pairHash: UInt64 = 0
        var pairSeed: UInt64? = nil
        var spans: [(start: Int, count: Int, hash: UInt64)] = []
        var table = [Int32](repeating: -1, count: 256)
        var mask = 255
        @inline(__always) func put(_ byte: UInt8) {
            arena[w] = byte
            w += 1
            hash = (hash ^ UInt64(byte)) &* fnvPrime
            pairHash = (pairHash ^ UInt64(byte)) &* fnvPrime
        }
        func endWord() {
            guard w > wordStart else { return }
            if let pairs {
                if pairSeed != nil { pairs.pointee.append(pairKey(pairHash)) }
                pairSeed = (hash ^ 32) &* fnvPrime
            }
            let count = w - wordStart
            var slot = Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
            var duplicate = false
            while table[slot] >= 0 {
                let span = spans[Int(table[slot])]
                if span.hash == hash && span.count == count
                    && UnsafeBufferPointer(start: arena + span.start, count: count).elementsEqual(UnsafeBufferPointer(start: arena + wordStart, count: count))
                {
                    duplicate = true
                    break
                }
                slot = (slot + 1) & mask
            }
            if duplicate {
                w = wordStart
            } else {
                table[slot] = Int32(spans.count)
                spans.append((wordStart, count, hash))
                if spans.count * 2 > mask {
                    mask = mask * 2 + 1
                    table = [Int32](repeating: -1, count: mask + 1)
                    for (index, span) in spans.enumerated() {
                        var s = Int(truncatingIfNeeded: span.hash ^ (span.hash >> 29)) & mask
                        while table[s] >= 0 { s = (s + 1) & mask }
                        table[s] = Int32(index)
                    }
                }
            }
            wordStart = w
            hash = basis
            pairHash = pairSeed ?? 0
        }
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b < 0x80 {
                if let folded = foldASCII(b) { put(folded) } else { endWord() }
                i += 1
                continue
            }
            switch foldNonASCII(bytes, at: &i) {
            case .letters(let folded): for byte in folded.utf8 where w < capacity { put(byte) }
            case .separator: endWord()
            case .ignored: break
            }
        }
        endWord()
        body(spans.map { (UnsafeBufferPointer(start: arena + $0.start, count: $0.count), $0.hash) })
    }

    static let fnvPrime: UInt64 = 0x100_0000_01b3

    /// FNV-1a over `bytes`, continuing from `seed`.
    @inline(__always)
    static func fnv(_ bytes: ArraySlice<UInt8>, seed: UInt64 = 0xcbf2_9ce4_8422_2325) -> UInt64 {
        var h = seed
        for byte in bytes { h = (h ^ UInt64(byte)) &* fnvPrime }
        return h
    }

    /// The hash under which the pair of adjacent folded words `first second` is indexed:
    /// FNV-1a with its low 8 bits cleared, so that an index chunk can pack a record's
    /// position into them and sort plain integers (56 bits still make a collision
    /// between two of ten million pairs about a one-in-a-billion event per query).
    package static func pairHash(_ first: String, _ second: String) -> UInt64 {
        pairKey(fnv(ArraySlice(Array((first + " " + second).utf8))))
    }

    /// A pair's FNV-1a hash as indexed: low 8 bits cleared, and never 0 (free table slots are 0).
    @inline(__always)
    static func pairKey(_ hash: UInt64) -> UInt64 {
        let kept = hash & ~0xFF
        return kept == 0 ? 0x100 : kept
    }

    /// Appends the folded words of valid UTF-8 `bytes` to `out`, calling `endWord` with
    /// `out` and the word's start after each word (it may remove the word again). ASCII
    /// goes byte by byte; other letters are folded through the table above or lowercased.
    /// An ASCII letter or digit, lowercased; nil for anything that separates words.
    @inline(__always)
    static func foldASCII(_ b: UInt8) -> UInt8? {
        if (b >= 48 && b <= 57) || (b >= 97 && b <= 122) { return b }
        if b >= 65 && b <= 90 { return b + 32 }
        return nil
    }

    /// What a non-ASCII scalar folds to.
    enum Folded {
        /// Letters or digits: the base letters (`é` → `e`) or the lowercase.
        case letters(String)
        /// Punctuation or space: ends a word.
        case separator
        /// A combining accent, dropped so that decomposed text folds like composed text.
        case ignored
    }

    /// Decodes the scalar of valid UTF-8 starting at `i` (a non-ASCII lead byte), moves
    /// `i` past it, and folds it.
    static func foldNonASCII(_ bytes: UnsafeBufferPointer<UInt8>, at i: inout Int) -> Folded {
        let b = bytes[i]
        let length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2
        var value = UInt32(b) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for k in 1..<length where i + k < bytes.count { value = value << 6 | UInt32(bytes[i + k] & 0x3F) }
        i += length
        guard let scalar = Unicode.Scalar(value) else { return .ignored }
        if let base = bases[scalar] { return .letters(base) }
        if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
            return .letters(scalar.properties.isCased ? String(scalar).lowercased() : String(scalar))
        }
        return scalar.properties.generalCategory == .nonspacingMark ? .ignored : .separator
    }

    static func fold(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8], endWord: (inout [UInt8], Int) -> Void) {
        var start = out.count
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b < 0x80 {
                if let folded = foldASCII(b) {
                    out.append(folded)
                } else if out.count > start {
                    endWord(&out, start)
                    start = out.count
                }
                i += 1
                continue
            }
            switch foldNonASCII(bytes, at: &i) {
            case .letters(let folded): out.append(contentsOf: folded.utf8)
            case .separator where out.count > start:
                endWord(&out, start)
                start = out.count
            case .separator, .ignored: break
            }
        }
        if out.count > start { endWord(&out, start) }
    }

    /// Calls `body` with each folded word of `text`.
    package static func forEachWord(_ text: String, _ body: (String) -> Void) {
        var text = text
        text.withUTF8 { bytes in
            var out: [UInt8] = []
            fold(bytes, into: &out) { out, start in
                body(String(decoding: out[start...], as: UTF8.self))
                out.removeAll(keepingCapacity: true)
            }
        }
    }

    /// Appends the folded words of valid UTF-8 `bytes` to `out`, each followed by a space.
    package static func appendFoldedWords(utf8 bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        fold(bytes, into: &out) { out, _ in out.append(32) }
    }

    /// `text` folded as one string (words joined with single spaces), for equality and phrase checks.
    package static func folded(_ text: String) -> String {
        var text = text
        var out: [UInt8] = []
        text.withUTF8 { appendFoldedWords(utf8: $0, to: &out) }
        if out.last == 32 { out.removeLast() }
        return String(decoding: out, as: UTF8.self)
    }
}
