import FolioFolder
import FolioGit
import FolioTestSupport
import Foundation
import Testing

/// `GitSync` between clones of a bare repository (reached by its path here; over a real
/// SSH server in GitSyncSSHTests): records merged field by field, a real clash kept as a
/// file and a copy, never a commit with markers, never a force-push, never stuck.
@Suite struct GitSyncTests {
    static let recipe = ConflictCopyFixture.recipe
    static func recipe(_ changes: [(String, String)]) -> String { ConflictCopyFixture.recipe(changes) }

    @Test(arguments: [false, true])
    func differentFieldsOfOneRecordMergeOnBothDevices(rebase: Bool) async throws {
        guard let devices = try await GitDevices(files: ["r.md": Self.recipe]) else { return }
        defer { devices.remove() }
        let laptop = try await devices.clone("LAPTOP", rebase: rebase), phone = try await devices.clone("PHONE", rebase: rebase)
        try laptop.write(Self.recipe([("time: 15m", "time: 20m")]), "r.md")
        try phone.write(Self.recipe([("servings: 4", "servings: 6")]), "r.md")
        let first = try await laptop.sync()
        #expect(first.events.contains { if case .pushed = $0 { true } else { false } }, "\(first)")
        let second = try await phone.sync()
        #expect(second.events.contains { if case .integrated(_, let rebased, _) = $0 { rebased == rebase } else { false } }, "\(second)")
        #expect(second.clashes.isEmpty && second.stopped == nil)
        _ = try await laptop.sync()
        let both = Self.recipe([("time: 15m", "time: 20m"), ("servings: 4", "servings: 6")])
        #expect(laptop.read("r.md") == both && phone.read("r.md") == both)
        #expect(laptop.files() == phone.files())
        #expect(try await phone.sync().events == [.inStep(upstream: "origin/main")])
        try await devices.checkRemote()
    }

    @Test(arguments: [false, true])
    func aRealClashKeepsTheRemotesVersionAndCommitsACopy(rebase: Bool) async throws {
        guard let devices = try await GitDevices(files: ["r.md": Self.recipe]) else { return }
        defer { devices.remove() }
        let laptop = try await devices.clone("LAPTOP", rebase: rebase), phone = try await devices.clone("PHONE", rebase: rebase)
        try laptop.write(Self.recipe([("time: 15m", "time: 20m")]), "r.md")
        try phone.write(Self.recipe([("time: 15m", "time: 25m"), ("servings: 4", "servings: 6")]), "r.md")
        _ = try await laptop.sync()
        let report = try await phone.sync()
        #expect(report.clashes.count == 1 && report.clashes.first?.path == "r.md", "\(report)")
        #expect(report.needsAttention && report.stopped == nil)
        let copy = try #require(report.clashes.first?.copy)
        #expect(copy.hasPrefix("r.sync-conflict-") && copy.hasSuffix("-phone.md"))
        // Folio's copy, for a person to settle: not one a sync tool made, which `folio watch` would fold back.
        #expect(ConflictCopies.original(of: copy) == nil && ConflictCopies.originalOfAnyCopy(copy) == "r.md")
        // The file: the remote's time, and the servings that did not clash; the copy: the phone's whole.
        #expect(phone.read("r.md") == Self.recipe([("time: 15m", "time: 20m"), ("servings: 4", "servings: 6")]))
        #expect(phone.read(copy) == Self.recipe([("time: 15m", "time: 25m"), ("servings: 4", "servings: 6")]))
        _ = try await laptop.sync()
        #expect(laptop.files() == phone.files())
        // No commit holds markers; nothing is left mid-merge.
        #expect(try await !phone.git(["log", "-p", "--all"]).contains("<<<<<<<"))
        #expect(try await phone.git(["status", "--porcelain"]).isEmpty)
        try await devices.checkRemote()
    }

    /// A device name Syncthing could have made (seven digits) is told apart; any other is
    /// kept in lower case.
    @Test(arguments: [("1234567", "-1234567-git.md"), ("Anna's iPhone", "-annasiphone.md"), ("ABCDEFG", "-abcdefg.md")])
    func aClashsCopyNeverCarriesASyncToolsDeviceName(device: String, suffix: String) async throws {
        guard let devices = try await GitDevices(files: ["r.md": Self.recipe]) else { return }
        defer { devices.remove() }
        let laptop = try await devices.clone("LAPTOP"), phone = try await devices.clone("PHONE")
        try laptop.write(Self.recipe([("time: 15m", "time: 20m")]), "r.md")
        try phone.write(Self.recipe([("time: 15m", "time: 25m")]), "r.md")
        _ = try await laptop.sync()
        var options = phone.options
        options.deviceName = device
        let report = try await offThePool { [folder = phone.folder, options] in try GitSync(folder, options: options).run() }
        let copy = try #require(report.clashes.first?.copy, "\(report)")
        #expect(copy.hasSuffix(suffix) && ConflictCopies.original(of: copy) == nil, "\(copy)")
    }

    /// Both devices deleted a file (and changed others): the pass completes, the file
    /// stays deleted. (Staging a path that is in neither the work tree nor the index
    /// failed the pass mid-merge, and every pass after it the same way.)
    @Test(arguments: [false, true])
    func aFileBothDevicesDeletedStaysDeleted(rebase: Bool) async throws {
        guard let devices = try await GitDevices(files: ["r.md": Self.recipe, "old.md": "---\ntitle: Old\n---\n"]) else { return }
        defer { devices.remove() }
        let laptop = try await devices.clone("LAPTOP", rebase: rebase), phone = try await devices.clone("PHONE", rebase: rebase)
        for device in [laptop, phone] { try FileManager.default.removeItem(atPath: device.folder + "/old.md") }
        try laptop.write(Self.recipe([("time: 15m", "time: 20m")]), "r.md")
        try phone.write(Self.recipe([("servings: 4", "servings: 6")]), "r.md")
        _ = try await laptop.sync()
        let report = try await phone.sync()
        #expect(report.stopped == nil && report.clashes.isEmpty, "\(report)")
        _ = try await laptop.sync()
        #expect(laptop.files() == ["r.md": Self.recipe([("time: 15m", "time: 20m"), ("servings: 4", "servings: 6")])])
        #expect(phone.files() == laptop.files())
        #expect(try await phone.git(["status", "--porcelain"]).isEmpty)
        try await devices.checkRemote()
    }

    @Test func nothingIsCommittedThatHoldsMarkersOrIsAnEditorsScratchFile() async throws {
        guard let devices = try await GitDevices(files: ["r.md": Self.recipe]) else { return }
        defer { devices.remove() }
        let laptop = try await devices.clone("LAPTOP")
        try laptop.write("<<<<<<< ours\ntime: 20m\n=======\ntime: 25m\n>>>>>>> theirs\n", "q.md")
        try laptop.write("swap", ".r.md.swp")
        try laptop.write("backup", "r.md~")
        try laptop.write("4913", "4913")
        try laptop.write(Self.recipe([("time: 15m", "time: 20m")]), "r.md")
        let report = try await laptop.sync()
        #expect(report.leftOut.map(\.path) == ["q.md"], "\(report)")
        #expect(report.events.contains(.committed(commit: try await laptop.git(["rev-parse", "HEAD~0"]).trimmingCharacters(in: .whitespacesAndNewlines), paths: ["r.md"])), "\(report)")
        #expect(try await laptop.git(["ls-files"]) == "r.md\n")
    }

    /// The user's own pull stopped at a conflict, as a merge or as a rebase: the pass
    /// changes nothing, says what git is in the middle of, and the user's resolution
    /// then goes through.
    @Test(arguments: [false, true])
    func theUsersOwnMergeOrRebaseInProgressIsLeftAlone(rebase: Bool) async throws {
        guard let devices = try await GitDevices(files: ["r.md": Self.recipe]) else { return }
        defer { devices.remove() }
        let laptop = try await devices.clone("LAPTOP"), phone = try await devices.clone("PHONE")
        try laptop.write(Self.recipe([("time: 15m", "time: 20m")]), "r.md")
        _ = try await laptop.sync()
        try phone.write(Self.recipe([("time: 15m", "time: 25m")]), "r.md")
        try await phone.git(["commit", "-qam", "mine"])
        try await phone.git(["pull", "-q", rebase ? "--rebase" : "--no-rebase"], expect: 1)
        let before = phone.read("r.md"), head = try await phone.git(["rev-parse", "HEAD"])
        let busy = rebase ? "a rebase (rebase-merge)" : "a merge (MERGE_HEAD)"
        await #expect(throws: GitSyncError(.gitBusy, "git is in the middle of \(busy): nothing was changed; finish it (or abort it), then sync again")) { try await phone.sync() }
        #expect(phone.read("r.md") == before)
        #expect(try await phone.git(["rev-parse", "HEAD"]) == head)
        #expect(try await phone.git(["status", "--porcelain"]).contains("UU r.md"))
        // The user settles it by hand; the next pass pushes the outcome.
        try phone.write(Self.recipe([("time: 15m", "time: 25m")]), "r.md")
        try await phone.git(["add", "r.md"])
        try await phone.git(rebase ? ["-c", "core.editor=true", "rebase", "--continue"] : ["commit", "-qm", "settled", "--no-edit"])
        let report = try await phone.sync()
        #expect(report.events.contains(.pushed(upstream: "origin/main", commits: rebase ? 1 : 2)), "\(report)")
        _ = try await laptop.sync()
        #expect(laptop.read("r.md") == Self.recipe([("time: 15m", "time: 25m")]))
        try await devices.checkRemote()
    }

    @Test func aMergeAKilledPassLeftIsUndoneAndDoneAgain() async throws {
        guard let devices = try await GitDevices(files: ["r.md": Self.recipe]) else { return }
        defer { devices.remove() }
        let laptop = try await devices.clone("LAPTOP"), phone = try await devices.clone("PHONE")
        try laptop.write(Self.recipe([("time: 15m", "time: 20m")]), "r.md")
        _ = try await laptop.sync()
        try phone.write(Self.recipe([("servings: 4", "servings: 6")]), "r.md")
        try await phone.git(["commit", "-qam", "mine"])
        try await phone.git(["fetch", "-q"])
        // A pass killed mid-merge: its note, and git's merge under way.
        let head = try await phone.git(["rev-parse", "HEAD"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let remote = try await phone.git(["rev-parse", "origin/main"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let state = devices.root.appendingPathComponent("state-PHONE/git-sync").path
        try GitDevices.write("merge \(head) \(remote)\n", to: state + "/operation")
        try await phone.git(["merge", "--no-commit", "--no-ff", "-q", "origin/main"], expect: 1)
        let report = try await phone.sync()
        #expect(report.stopped == nil && report.clashes.isEmpty, "\(report)")
        #expect(phone.read("r.md") == Self.recipe([("time: 15m", "time: 20m"), ("servings: 4", "servings: 6")]))
        #expect(try await phone.git(["status", "--porcelain"]).isEmpty)
    }

    @Test func offlineTheEditsAreCommittedAndTheNextPassPushesThem() async throws {
        guard let devices = try await GitDevices(files: ["r.md": Self.recipe]) else { return }
        defer { devices.remove() }
        let laptop = try await devices.clone("LAPTOP")
        try await laptop.git(["remote", "set-url", "origin", "ssh://127.0.0.1:1/nowhere.git"])
        try laptop.write(Self.recipe([("time: 15m", "time: 20m")]), "r.md")
        let report = try await laptop.sync()
        #expect(report.stopped?.kind == .offline, "\(report)")
        #expect(report.stopped?.message.contains("your edits are committed here and safe") == true)
        #expect(try await laptop.git(["status", "--porcelain"]).isEmpty)
        try await laptop.git(["remote", "set-url", "origin", devices.remote])
        let back = try await laptop.sync()
        #expect(back.events.contains(.pushed(upstream: "origin/main", commits: 1)), "\(back)")
    }

    /// Two devices syncing at the same moment, round after round: every edit arrives,
    /// and every head the remote had stays an ancestor of the next (no force-push).
    @Test func twoDevicesSyncingAtOnceLoseNothingAndNeverRewriteTheRemote() async throws {
        guard let devices = try await GitDevices(files: ["r.md": Self.recipe]) else { return }
        defer { devices.remove() }
        let laptop = try await devices.clone("LAPTOP"), phone = try await devices.clone("PHONE", rebase: true)
        var heads = [try await devices.remoteHead()]
        for round in 0..<8 {
            try laptop.write("laptop \(round)\n", "laptop-\(round).md")
            try phone.write("phone \(round)\n", "phone-\(round).md")
            async let one = laptop.sync()
            async let two = phone.sync()
            _ = try await (one, two)
            heads.append(try await devices.remoteHead())
        }
        _ = try await laptop.sync(); _ = try await phone.sync(); _ = try await laptop.sync()
        heads.append(try await devices.remoteHead())
        for (older, newer) in zip(heads, heads.dropFirst()) {
            try await devices.run(["-C", devices.remotePath, "merge-base", "--is-ancestor", older, newer])
        }
        #expect(laptop.files() == phone.files())
        #expect(Set(laptop.files().keys) == Set(["r.md"] + (0..<8).flatMap { ["laptop-\($0).md", "phone-\($0).md"] }))
        try await devices.checkRemote()
    }
}
