import Foundation
import FolioTestSupport
import Testing
@testable import FolioMerge

/// The text merge against other tools' own test cases (../shared/corpora/merge3).
@Suite struct TextMergeCorpusTests {
    struct Case {
        let name: String
        let folder: String
        let meta: [String: Any]

        func bytes(_ file: String) throws -> [UInt8] { try Corpora.bytes(folder + "/" + file) }

        var options: [String] { meta["options"] as? [String] ?? [] }

        var mergeOptions: MergeOptions {
            let labels = meta["labels"] as? [String: String] ?? [:]
            var options = MergeOptions(oursLabel: labels["ours"], baseLabel: labels["base"], theirsLabel: labels["theirs"])
            for (index, option) in self.options.enumerated() {
                if index > 0 && self.options[index - 1] == "--diff-algorithm" {
                    options.algorithm = DiffAlgorithm(rawValue: option) ?? .myers
                    continue
                }
                switch option {
                case "--ours": options.favor = .ours
                case "--theirs": options.favor = .theirs
                case "--union": options.favor = .union
                case "--diff3": options.showBase = true
                default:
                    if option.hasPrefix("--marker-size=") { options.markerSize = Int(option.dropFirst(14)) ?? 7 }
                }
            }
            return options
        }
    }

    static func cases(_ suite: String) -> [Case] {
        guard let root = Corpora.path("merge3/" + suite) else { return [] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return names.sorted().compactMap { name in
            let folder = root + "/" + name
            guard let data = FileManager.default.contents(atPath: folder + "/meta.json"),
                  let meta = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            else { return nil }
            return Case(name: name, folder: folder, meta: meta)
        }
    }

    @Test func gitT6403ByteForByte() throws {
        var checked = 0
        for testCase in Self.cases("git-t6403") {
            let result = TextMerge.merge(
                base: try testCase.bytes("base.txt"), ours: try testCase.bytes("ours.txt"), theirs: try testCase.bytes("theirs.txt"),
                options: testCase.mergeOptions)
            // Case 03 is an upstream known breakage: git's actual output is the reference.
            let expectedFile = testCase.meta["known_breakage_upstream"] as? Bool == true ? "git-actual.txt" : "expected.txt"
            let expected = try testCase.bytes(expectedFile)
            #expect(result.bytes == expected, "\(testCase.name):\n\(String(decoding: result.bytes, as: UTF8.self))")
            if let conflict = testCase.meta["conflict"] as? Bool, testCase.meta["known_breakage_upstream"] as? Bool != true {
                #expect((result.conflicts > 0) == conflict, "\(testCase.name)")
            }
            // The exit status recorded is that of a git that could not select histogram diff.
            if let status = testCase.meta["git_exit_status"] as? Int, !testCase.options.contains("histogram") {
                #expect(min(result.conflicts, 127) == status, "\(testCase.name)")
            }
            checked += 1
        }
        if Corpora.path("merge3/git-t6403") != nil { #expect(checked == 22) }
    }
}

extension TextMergeCorpusTests {
    /// Whether each case's expectation says it conflicts (nil when it does not say).
    static func expectsConflict(_ testCase: Case) -> Bool? {
        if let conflict = testCase.meta["conflict"] as? Bool { return conflict }
        guard let data = FileManager.default.contents(atPath: testCase.folder + "/expected_regions.json"),
              let regions = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]]
        else { return nil }
        return regions.contains { $0["conflict"] != nil }
    }

    /// Other suites' cases (node-diff3, breezy): the same verdict, clean or conflicting,
    /// and no line either side added is missing from the result.
    @Test(arguments: ["node-diff3", "breezy-merge3"])
    func otherSuitesAgreeOnConflictsAndLoseNoLine(suite: String) throws {
        var checked = 0
        for testCase in Self.cases(suite) {
            // Cherry-pick merges follow another rule (the base is not a common ancestor).
            if (testCase.meta["options"] as? [String: Any])?["is_cherrypick"] as? Bool == true { continue }
            let base = try testCase.bytes("base.txt"), ours = try testCase.bytes("ours.txt"), theirs = try testCase.bytes("theirs.txt")
            let result = TextMerge.merge(base: base, ours: ours, theirs: theirs, options: MergeOptions(oursLabel: "ours", theirsLabel: "theirs"))
            // node-diff3 can be asked to report identical changes on both sides as a
            // conflict ("false conflicts"); git and Folio take such a change once.
            let keepsFalseConflicts = (testCase.meta["options"] as? [String: Any])?["excludeFalseConflicts"] as? Bool == false
            if let conflict = Self.expectsConflict(testCase), !keepsFalseConflicts {
                #expect((result.conflicts > 0) == conflict, "\(suite)/\(testCase.name): Folio found \(result.conflicts) conflicts")
            }
            // Counted, not a set: a side that adds a line already present elsewhere (a second
            // "}" or blank line) must find it that many more times in the result. A line's
            // break is not counted: a last line without one gets one when a marker follows it.
            let merged = Self.lineCounts(result.bytes)
            let baseCounts = Self.lineCounts(base)
            for side in [ours, theirs] {
                for (line, count) in Self.lineCounts(side) where count > baseCounts[line, default: 0] {
                    let added = count - baseCounts[line, default: 0]
                    #expect(merged[line, default: 0] >= added,
                            "\(suite)/\(testCase.name): a side added \(added) × \(String(decoding: line, as: UTF8.self).debugDescription), the result holds \(merged[line, default: 0])")
                }
            }
            checked += 1
        }
        if Corpora.path("merge3/" + suite) != nil { #expect(checked > 10) }
    }

    /// How many times each line (without its line break) occurs in `bytes`.
    static func lineCounts(_ bytes: [UInt8]) -> [[UInt8]: Int] {
        var counts: [[UInt8]: Int] = [:]
        for range in LineFile(bytes).lines {
            var line = Array(bytes[range])
            if line.last == 10 { line.removeLast() }
            counts[line, default: 0] += 1
        }
        return counts
    }
}
