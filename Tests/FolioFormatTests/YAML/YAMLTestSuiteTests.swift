import Foundation
import FolioTestSupport
import Testing
@testable import FolioFormat

/// The yaml-test-suite (../shared/corpora/yaml-test-suite): every case in Folio's format
/// parses to its in.json, every error case is refused, every case outside the format
/// is refused as "not supported" or, where accepted, equals in.json — never misread.
@Suite struct YAMLTestSuiteTests {
    /// Features of the suite's features.tsv that Folio's subset leaves out on purpose.
    static let outsideFormat: Set<String> = [
        "alias", "anchor", "tag", "explicit-key", "complex-key", "empty-key", "directive", "multi-doc",
    ]

    @Test func everyCaseIsReadRightOrRefused() throws {
        guard let root = Corpora.path("yaml-test-suite") else { return }
        let table = try String(contentsOfFile: root + "/features.tsv", encoding: .utf8)
        var features: [String: Set<String>] = [:]
        for line in table.split(separator: "\n").dropFirst() {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false)
            features[String(columns[0])] = Set(columns[3].split(separator: ",").map(String.init))
        }
        var inFormat = (total: 0, equal: 0), errors = (total: 0, refused: 0)
        var outside = (total: 0, refusedAsUnsupported: 0, acceptedEqual: 0)
        var misread: [String] = []
        for (name, caseFeatures) in features.sorted(by: { $0.key < $1.key }) {
            let directory = root + "/cases/" + name
            let input = try Corpora.bytes(directory + "/in.yaml")
            let result = Result { try YAML.parse(bytes: input, path: name + "/in.yaml") }
            if FileManager.default.fileExists(atPath: directory + "/error") {
                errors.total += 1
                if case .failure = result { errors.refused += 1 } else { misread.append("\(name): error case accepted") }
                continue
            }
            guard let json = try? String(contentsOfFile: directory + "/in.json", encoding: .utf8) else { continue }
            let expected = try JSONReader.values(json)
            let isInFormat = caseFeatures.isDisjoint(with: Self.outsideFormat)
            switch result {
            case .success(let tree):
                tree.root?._checkInvariants()
                let same = expected.isEmpty ? tree.root == nil : expected.count == 1 && tree.value.sameAsJSON(expected[0])
                if !same {
                    misread.append("\(name): read \(tree.value.json(indent: nil)), expected \(json)")
                } else if isInFormat {
                    inFormat.total += 1
                    inFormat.equal += 1
                } else {
                    outside.total += 1
                    outside.acceptedEqual += 1
                }
            case .failure(let error):
                if isInFormat {
                    inFormat.total += 1
                    Issue.record("\(name) is in Folio's format but was refused: \(error)")
                } else {
                    outside.total += 1
                    if (error as? FormatError)?.kind == .unsupported && "\(error)".contains("not supported by Folio's YAML subset") {
                        outside.refusedAsUnsupported += 1
                    } else {
                        Issue.record("\(name) is outside Folio's format but was refused with another error: \(error)")
                    }
                }
            }
        }
        print("""
            yaml-test-suite: \(inFormat.equal)/\(inFormat.total) in-format cases equal in.json, \
            \(errors.refused)/\(errors.total) error cases refused, \
            \(outside.refusedAsUnsupported)/\(outside.total) outside-format cases refused as not supported \
            (\(outside.acceptedEqual) accepted and equal to in.json), \(misread.count) misread
            """)
        #expect(misread.isEmpty, "misread: \(misread.joined(separator: "\n"))")
        #expect(inFormat.equal == inFormat.total && inFormat.total >= 146)
        #expect(errors.refused == errors.total && errors.total == 94)
        // SUBSET.txt is the floor: each of its cases must be among those read right.
        let subset = try String(contentsOfFile: root + "/SUBSET.txt", encoding: .utf8).split(separator: "\n")
        #expect(subset.count == 146)
        for name in subset {
            let input = try Corpora.bytes(root + "/cases/\(name)/in.yaml")
            let expected = try JSONReader.values(try String(contentsOfFile: root + "/cases/\(name)/in.json", encoding: .utf8))
            let tree = try YAML.parse(bytes: input)
            #expect(expected.count == 1 && tree.value.sameAsJSON(expected[0]), "SUBSET case \(name)")
        }
    }
}
