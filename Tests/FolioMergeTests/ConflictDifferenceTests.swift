import Testing
@testable import FolioFormat
@testable import FolioMerge

/// What a person sees to settle a conflict copy: the fields that clash, then the lines.
@Suite struct ConflictDifferenceTests {
    @Test func fieldsThatClashAreListedWithBothValuesThenTheBodysLines() {
        let file = Array("---\ntitle: Soup\ntime: 20m\nservings: 4\n---\nSalt.\nStir.\n".utf8)
        let copy = Array("---\ntitle: Soup\ntime: 25m\ntags: [quick]\n---\nSalt.\nStir well.\n".utf8)
        let difference = ConflictDifference(file: file, copy: copy)
        #expect(difference.fields == [
            .init(key: "time", file: .string("20m"), copy: .string("25m")),
            .init(key: "tags", file: nil, copy: .sequence([.string("quick")])),
            .init(key: "servings", file: .int(4), copy: nil),
        ])
        #expect(difference.lines == [.removed("Stir."), .added("Stir well.")])
    }

    @Test func aSideThatDoesNotParseIsComparedWhole() {
        let difference = ConflictDifference(file: Array("---\ntitle: \"x\n---\n".utf8), copy: Array("---\ntitle: x\n---\n".utf8))
        #expect(difference.fields.isEmpty)
        #expect(difference.lines == [.removed("title: \"x"), .added("title: x")])
        #expect(ConflictDifference(file: [65], copy: [65]).isEmpty)
    }

    @Test func aCopyWhoseFileIsGoneIsAllAdded() {
        let difference = ConflictDifference(fileGoneWithCopy: Array("---\ntitle: Soup\n---\nSalt.\n".utf8))
        #expect(difference.fileIsGone)
        #expect(difference.fields == [.init(key: "title", file: nil, copy: .string("Soup"))])
        #expect(difference.lines == [.added("Salt.")])
        #expect(!ConflictDifference(file: [65], copy: [66]).fileIsGone)
    }
}
