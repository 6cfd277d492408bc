/// A Markdown list item (or the lines around a list) as the section merge compares it:
/// without its number, so that `4. Boil.` and `5. Boil.` are the same item, renumbered.
struct ListItemText: Equatable {
    /// The bytes with the item's number taken out (`3. Boil` → `. Boil`); other items and
    /// the lines around the list as they are.
    var unnumbered: [UInt8]
    /// The item's number as written, nil for a bullet or for lines that are no item.
    var number: Int?

    static func == (a: ListItemText, b: ListItemText) -> Bool { a.unnumbered == b.unnumbered }

    init(unnumbered: [UInt8], number: Int?) {
        self.unnumbered = unnumbered
        self.number = number
    }

    /// `bytes` read as an item: its leading spaces, then digits followed by `.` or `)`.
    init(_ bytes: [UInt8]) {
        let indent = bytes.prefix { $0 == 32 }.count
        let digits = bytes[indent...].prefix { $0 >= 48 && $0 <= 57 }.count
        guard digits > 0, digits <= 9, indent + digits < bytes.count,
              bytes[indent + digits] == UInt8(ascii: ".") || bytes[indent + digits] == UInt8(ascii: ")")
        else {
            self.init(unnumbered: bytes, number: nil)
            return
        }
        let number = Int(String(decoding: bytes[indent..<(indent + digits)], as: UTF8.self))
        self.init(unnumbered: Array(bytes[..<indent]) + Array(bytes[(indent + digits)...]), number: number)
    }

    /// The item as written, with its own number.
    var written: [UInt8] { numbered(number) }

    /// How far the item is indented: a nested item (`   1. Salt it.`) is numbered in its
    /// own list, not in its parent's.
    var indent: Int { unnumbered.prefix { $0 == 32 }.count }

    /// The item with `number` put back where its number was (nil: none).
    func numbered(_ number: Int?) -> [UInt8] {
        guard let number else { return unnumbered }
        let indent = unnumbered.prefix { $0 == 32 }.count
        return Array(unnumbered[..<indent]) + Array(String(number).utf8) + Array(unnumbered[indent...])
    }
}

/// How a merged list is numbered, learnt from how our side numbers it: `1. 2. 3.`
/// (from any start) is numbered again in order, so items that came or went leave no
/// gap; `1. 1. 1.` stays so; anything else keeps each item's own number.
struct ListNumbering {
    enum Style: Equatable { case sequential(next: Int), constant(Int), asWritten }
    private(set) var style: Style

    /// The numbering of a list whose numbered items, in order, carry `numbers`.
    init(_ numbers: [Int]) {
        guard let first = numbers.first else {
            style = .sequential(next: 1)
            return
        }
        if numbers.count > 1 && numbers.allSatisfy({ $0 == first }) {
            style = .constant(first)
        } else if numbers.enumerated().allSatisfy({ $0.element == first + $0.offset }) {
            style = .sequential(next: first)
        } else {
            style = .asWritten
        }
    }

    /// The number of the next numbered item, whose own number is `own`.
    mutating func next(_ own: Int?) -> Int? {
        switch style {
        case .sequential(let next):
            style = .sequential(next: next + 1)
            return next
        case .constant(let number): return number
        case .asWritten: return own
        }
    }
}
