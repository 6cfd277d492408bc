import FolioFolder
@testable import FolioShared
import FolioTestSupport
@testable import FolioSystem
@testable import FolioVersions
import Testing

/// The shared version graph, without a disk: log lines read back, the lowest common
/// ancestor over seeded random multi-device histories equal to the true one, edits back
/// to old bytes kept as new versions, and what the graph proves dropped or superseded.
@Suite struct VersionGraphTests {
    static func digest(_ text: String) -> SHA256.Digest { SHA256.hash(Array(text.utf8)) }

    /// Builds events for a test: each device numbers its own.
    struct Logs {
        var events: [VersionEvent] = []
        var names: [VersionEvent.ID: String] = [:]
        var sequence: [String: Int] = [:]
        var time: Int64 = 0

        @discardableResult
        mutating func log(_ device: String, _ kind: VersionEvent.Kind, _ content: String?, parents: [VersionEvent.ID] = [], path: String = "r.md") -> VersionEvent.ID {
            sequence[device, default: 0] += 1
            time += 1_000
            let id = VersionEvent.ID(device: device, sequence: sequence[device]!)
            events.append(VersionEvent(id: id, time: time, kind: kind, parents: parents, version: content.map(VersionGraphTests.digest), path: path))
            names[id] = content
            return id
        }

        var graph: VersionGraph { VersionGraph(events) }
    }

    @Test func logLinesReadBackAndACutLineIsPassedOver() {
        let events = [
            VersionEvent(id: .init(device: "aa", sequence: 1), time: 5, kind: .edit, version: Self.digest("one"), path: "r.md"),
            VersionEvent(id: .init(device: "aa", sequence: 2), time: 6, kind: .fold, parents: [.init(device: "aa", sequence: 1), .init(device: "bb", sequence: 7)],
                         version: Self.digest("two"), path: "dir/tab\there.md", copy: "dir/tab\there.sync-conflict-20261201-120000-ABCDEFG.md"),
            VersionEvent(id: .init(device: "aa", sequence: 3), time: 7, kind: .delete, parents: [.init(device: "aa", sequence: 2)], version: nil, path: "r.md"),
        ]
        var bytes = events.flatMap(\.line)
        #expect(VersionEvent.parse(bytes, device: "aa") == events)
        // A crash cut the last line short: it is passed over, the rest read.
        bytes += Array("4\t8\tedit\t-\tabc".utf8)
        #expect(VersionEvent.parse(bytes, device: "aa") == events)
        #expect(VersionEvent.parse(bytes + [10], device: "aa") == events)
        // The own log's lines (hashes in base64url), alone and after an earlier Folio's.
        let own = events.flatMap(\.ownLine)
        #expect(own.count == bytes.count - 14 - 2 * 21)
        #expect(VersionEvent.parse(own, device: "aa") == events)
        #expect(VersionEvent.parse(events[0].line + events.dropFirst().flatMap(\.ownLine), device: "aa") == events)
    }

    @Test func devicesThatFirstSawOneFileAtOnceShareOneRoot() {
        var logs = Logs()
        let a0 = logs.log("a", .edit, "R"), b0 = logs.log("b", .edit, "R")
        let a1 = logs.log("a", .edit, "A", parents: [a0]), b1 = logs.log("b", .edit, "B", parents: [b0])
        let graph = logs.graph
        #expect(graph.node(b0) == a0)
        #expect(graph.lowestCommonAncestor(a1, b1) == a0)
    }

    @Test func anEditBackToOldBytesIsANewVersion() {
        // The issue's untick: done:false → priority 15 → done:true (device a); device b
        // has all of it, then unticks — the bytes of the priority-15 version again —
        // while a adds a due date. The fold's base is the ticked version, so the untick
        // is b's change and is kept.
        var logs = Logs()
        let x0 = logs.log("a", .edit, "false,1")
        let x1 = logs.log("a", .edit, "false,15", parents: [x0])
        let x2 = logs.log("a", .edit, "true,15", parents: [x1])
        let seen = logs.log("b", .arrival, "true,15")
        let untick = logs.log("b", .edit, "false,15", parents: [seen])
        let due = logs.log("a", .edit, "true,15,due", parents: [x2])
        var graph = logs.graph
        #expect(graph.node(seen) == x2)
        #expect(graph.node(holding: Self.digest("false,15")) == untick)
        #expect(graph.lowestCommonAncestor(due, untick) == x2)
    }

    @Test func anArrivalStandsForTheVersionMadeElsewhereAndAFoldForBothSides() {
        var logs = Logs()
        let r = logs.log("a", .edit, "R")
        let a1 = logs.log("a", .edit, "A1", parents: [r])
        let b1 = logs.log("b", .edit, "B1", parents: [logs.log("b", .arrival, "R")])
        let seenOnC = logs.log("c", .arrival, "B1")
        let folded = logs.log("c", .fold, "F", parents: [seenOnC, a1])
        let c2 = logs.log("c", .edit, "C2", parents: [folded])
        let a2 = logs.log("a", .edit, "A2", parents: [a1])
        let graph = logs.graph
        #expect(graph.parents(of: folded).sorted() == [a1, b1].sorted())
        #expect(graph.lowestCommonAncestor(c2, a2) == a1)
        #expect(graph.lowestCommonAncestor(c2, b1) == b1)
        #expect(graph.lowestCommonAncestor(a1, b1) == r)
    }

    @Test func devicesThatFoldedTheSameCopyShareTheFold() {
        // Three devices fold one copy at once and write the same bytes; each then edits
        // on from its own fold. The fold is their common ancestor, not what came before it.
        var logs = Logs()
        let r = logs.log("a", .edit, "R")
        let a1 = logs.log("a", .edit, "A1", parents: [r])
        let b1 = logs.log("b", .edit, "B1", parents: [logs.log("b", .arrival, "R")])
        let foldA = logs.log("a", .fold, "F", parents: [logs.log("a", .arrival, "B1"), a1])
        let foldB = logs.log("b", .fold, "F", parents: [b1, a1])
        let a2 = logs.log("a", .edit, "A2", parents: [foldA]), b2 = logs.log("b", .edit, "B2", parents: [foldB])
        // A third device saw the fold arrive (standing for whichever fold was newest), then edited.
        let c2 = logs.log("c", .edit, "C2", parents: [logs.log("c", .arrival, "F")])
        let graph = logs.graph
        #expect(graph.node(foldB) == foldA)
        #expect(graph.lowestCommonAncestor(a2, b2) == foldA)
        #expect(graph.lowestCommonAncestor(c2, a2) == foldA && graph.lowestCommonAncestor(c2, b2) == foldA)
    }

    @Test func versionsWithNoCommonPastHaveNoAncestor() {
        var logs = Logs()
        let one = logs.log("a", .edit, "one"), other = logs.log("b", .arrival, "other")
        #expect(logs.graph.lowestCommonAncestor(one, other) == nil)
    }

    /// Seeded random histories of one file on three to five devices: each step a device
    /// edits (from what it holds), or one device's version reaches another — taken whole
    /// when it descends from what the other holds, else folded with it (the other logs a
    /// fold of both). At every fold, the graph of all logs gives the true lowest common
    /// ancestor (computed by brute force over the true parents), so the fold merges
    /// against it.
    @Test func theLowestCommonAncestorIsTheTrueOneOverRandomHistories() {
        let seed = SeededRandom.testSeed()
        var random = SeededRandom(seed: seed)
        var folds = 0
        for round in 0..<60 {
            var logs = Logs()
            let devices = (0..<Int.random(in: 3...5, using: &random)).map { "d\($0)" }
            var truth: [VersionEvent.ID: [VersionEvent.ID]] = [:]
            var holds: [String: VersionEvent.ID] = [:]
            var content = 0
            func next() -> String { content += 1; return "v\(content)" }
            let root = logs.log(devices[0], .edit, next())
            truth[root] = []
            for device in devices { holds[device] = root }
            func trueAncestors(_ id: VersionEvent.ID) -> Set<VersionEvent.ID> {
                var seen: Set = [id], stack = [id]
                while let top = stack.popLast() { for parent in truth[top] ?? [] where seen.insert(parent).inserted { stack.append(parent) } }
                return seen
            }
            for device in devices.dropFirst() { _ = logs.log(device, .arrival, "v1") }
            for _ in 0..<40 {
                let device = devices.randomElement(using: &random)!
                if Bool.random(using: &random) {
                    let made = logs.log(device, .edit, next(), parents: [logs.lastEvent(of: device)])
                    truth[made] = [holds[device]!]
                    holds[device] = made
                    continue
                }
                let from = devices.randomElement(using: &random)!
                guard from != device, holds[from] != holds[device] else { continue }
                let theirs = holds[from]!, ours = holds[device]!
                let theirsPast = trueAncestors(theirs), oursPast = trueAncestors(ours)
                if theirsPast.contains(ours) {
                    _ = logs.log(device, .arrival, logs.content(of: theirs))
                    holds[device] = theirs
                } else if oursPast.contains(theirs) {
                    continue
                } else {
                    let common = theirsPast.intersection(oursPast)
                    let lowest = common.filter { candidate in !common.contains { $0 != candidate && trueAncestors($0).contains(candidate) } }
                    var graph = logs.graph
                    let found = graph.lowestCommonAncestor(graph.node(logs.lastEvent(of: device))!, graph.node(holdingID: theirs, in: logs)!)
                    #expect(found.map(lowest.contains) == true, "seed \(seed), round \(round): found \(String(describing: found)), true \(lowest)")
                    folds += 1
                    let folded = logs.log(device, .fold, next(), parents: [logs.lastEvent(of: device), theirs])
                    truth[folded] = [ours, theirs]
                    holds[device] = folded
                }
            }
        }
        #expect(folds > 100, "seed \(seed): only \(folds) folds were checked")
    }

    /// Seeded random logs over a few files, their conflict copies and copies of copies:
    /// the copies the graph gives for each file are those a walk over every logged path
    /// finds, and the graph's indexes agree with its events.
    @Test func aFilesCopiesAreEveryCopyLoggedAtAnyDepth() {
        let seed = SeededRandom.testSeed()
        var random = SeededRandom(seed: seed)
        for round in 0..<40 {
            var logs = Logs()
            var paths = ["a.md", "dir/b.md", "c.txt"]
            for step in 0..<60 {
                let device = ["d1", "d2", "d3"].randomElement(using: &random)!
                var path = paths.randomElement(using: &random)!
                if Int.random(in: 0..<4, using: &random) == 0 {
                    // A copy of the path (perhaps itself a copy): Syncthing's name for it.
                    let dot = path.lastIndex(of: ".")!
                    path = path[..<dot] + ".sync-conflict-20261206-1010\(step < 10 ? "0" : "")\(step)-\(device.uppercased())ABCDE" + path[dot...]
                    paths.append(path)
                }
                let kind = [VersionEvent.Kind.edit, .arrival, .fold, .delete].randomElement(using: &random)!
                logs.log(device, kind, kind == .delete ? nil : "v\(step % 7)", path: path)
            }
            let graph = logs.graph
            graph._checkInvariants()
            for file in ["a.md", "dir/b.md", "c.txt", "missing.md"] {
                let walked = graph.paths.filter { ConflictCopies.rootOriginal(of: $0) == file }.sorted()
                #expect(graph.copyPaths(of: file) == walked, "seed \(seed), round \(round), \(file)")
            }
            #expect(graph.copyPaths(of: "a.md").count + graph.copyPaths(of: "dir/b.md").count + graph.copyPaths(of: "c.txt").count == paths.count - 3,
                    "seed \(seed), round \(round): every copy made is under its file")
        }
    }

    @Test func anArrivalStandsForTheVersionMadeBeforeItNotALaterOneWithTheSameBytes() {
        // The session's todo (issue 37): a's tick T arrived on b, which folded it with its own
        // edit into F; c, from F, unticked back to T's bytes seconds later. b's arrival
        // stands for a's tick: were it c's untick (made from F, which was made from the
        // arrival), the graph would have a cycle and no fold of F's line would find a base.
        var logs = Logs()
        let r = logs.log("a", .edit, "R")
        let seenR = logs.log("b", .arrival, "R"), seenRc = logs.log("c", .arrival, "R")
        let tick = logs.log("a", .edit, "T", parents: [r])
        let mine = logs.log("b", .edit, "B", parents: [seenR])
        let arrived = logs.log("b", .arrival, "T")
        let folded = logs.log("b", .fold, "F", parents: [arrived, mine])
        let seenF = logs.log("c", .arrival, "F")
        let untick = logs.log("c", .edit, "T", parents: [seenF])
        let due = logs.log("d", .edit, "D", parents: [seenRc])
        var graph = logs.graph
        #expect(graph.node(arrived) == tick)
        #expect(!graph.descends(folded, from: untick))
        #expect(graph.descends(untick, from: folded) && graph.descends(untick, from: tick))
        #expect(graph.lowestCommonAncestor(untick, due) == r)
        #expect(graph.node(holding: Self.digest("T")) == untick)
        // A device whose clock runs ahead: nothing made with those bytes before the sighting,
        // so the first made after it (within the slack) is what arrived.
        var ahead = Logs()
        let seen = ahead.log("b", .arrival, "X")
        ahead.time += 1_000_000_000
        let root = ahead.log("a", .edit, "R")
        let made = ahead.log("a", .edit, "X", parents: [root])
        ahead.time += 1_000_000_000
        let other = ahead.log("a", .edit, "Y", parents: [made])
        _ = ahead.log("a", .edit, "X", parents: [other])
        #expect(ahead.graph.node(seen) == made)
    }

    @Test func theSameChangeRecordedTwiceIsOneVersion() {
        // Issue 37's session (seed 3): a set time 19m; c recorded the file the sync tool
        // brought it as its own edit from the version both held (a's log line had not
        // arrived); d got it from c and set 28m while a set servings. Their base is the 19m
        // version — one version, whoever recorded it — or the fold clashes on `time`.
        var logs = Logs()
        let r = logs.log("a", .edit, "R")
        let seenC = logs.log("c", .arrival, "R")
        let nineteen = logs.log("a", .edit, "19m", parents: [r])
        let again = logs.log("c", .edit, "19m", parents: [seenC])
        let seenD = logs.log("d", .arrival, "19m")
        let twentyEight = logs.log("d", .edit, "28m", parents: [seenD])
        let servings = logs.log("a", .edit, "servings", parents: [nineteen])
        let graph = logs.graph
        #expect(graph.node(again) == nineteen && graph.node(seenD) == nineteen)
        #expect(graph.lowestCommonAncestor(servings, twentyEight) == nineteen)
        // The device that recorded it again never writes it back as its own: lost there (its
        // file replaced while its copy showed other bytes), and its copy removed by hand, it
        // is a's version, which a did not lose.
        var lostTwin = logs
        lostTwin.time = 100_000
        _ = lostTwin.log("c", .arrival, "W")
        _ = lostTwin.log("c", .arrival, "B", path: "r.sync-conflict-20261201-120000-WWWWWWW.md")
        var graph2 = lostTwin.graph
        for device in ["a", "c"] {
            #expect(graph2.droppedVersions(of: "r.md", madeBy: device, present: [Self.digest("W")], now: lostTwin.time + 10_000, settled: 5_000).isEmpty)
        }
        // The same bytes from another version are another change: an untick stays its own.
        var untick = logs
        let seenB = untick.log("b", .arrival, "19m")
        let other = untick.log("b", .edit, "other", parents: [seenB])
        let back = untick.log("b", .edit, "19m", parents: [other])
        #expect(untick.graph.node(back) == back)
    }

    @Test func aVersionIsDroppedOnlyWhenTheGraphProvesIt() {
        let settled: Int64 = 5_000
        func dropped(_ logs: Logs, by device: String = "a", present: [String], at now: Int64? = nil) -> [VersionEvent.ID] {
            var graph = logs.graph
            return graph.droppedVersions(of: "r.md", madeBy: device, present: Set(present.map(Self.digest)), now: now ?? logs.time + settled, settled: settled)
        }
        var logs = Logs()
        let r = logs.log("a", .edit, "R")
        let lost = logs.log("a", .edit, "A", parents: [r])
        let copy = "r.sync-conflict-20261201-120000-AAAAAAA.md"
        // The clash: the winner W arrived in place; the copy holds A.
        _ = logs.log("a", .arrival, "W")
        _ = logs.log("a", .arrival, "A", path: copy)
        #expect(dropped(logs, present: ["W", "A"]).isEmpty)
        // The copy then held another loser's bytes: A is nowhere, made nothing, removed by no one.
        var overwritten = logs
        _ = overwritten.log("a", .arrival, "B", path: copy)
        #expect(dropped(overwritten, present: ["W", "B"]) == [lost])
        // Only the device that made it writes it back.
        #expect(dropped(overwritten, by: "b", present: ["W", "B"]).isEmpty)
        // Once written back (a restore made from it), never again.
        var restored = overwritten
        _ = restored.log("a", .restore, "A", parents: [lost], path: "r.sync-conflict-20261201-120001-FOLIOSV.md")
        #expect(dropped(restored, present: ["W", "B"]).isEmpty)
        // Replaced by an arrival while the copy its own Syncthing moved it to appeared holding
        // another loser's bytes (two losers' copies under one name, overwritten before anyone
        // looked): dropped — once the copy has had time to arrive.
        var unseen = Logs()
        let r2 = unseen.log("a", .edit, "R")
        let lost2 = unseen.log("a", .edit, "A", parents: [r2])
        _ = unseen.log("a", .arrival, "W")
        _ = unseen.log("a", .arrival, "B", path: copy)
        #expect(dropped(unseen, present: ["W", "B"], at: unseen.time + settled - 1_001).isEmpty)
        #expect(dropped(unseen, present: ["W", "B"]) == [lost2])
        // …unless what arrived was made from it.
        var descended = unseen
        _ = descended.log("b", .edit, "W", parents: [lost2])
        #expect(dropped(descended, present: ["W", "B"]).isEmpty)
        // …or another device's log says a copy holds it still (on its way here).
        var elsewhere = unseen
        _ = elsewhere.log("c", .arrival, "A", path: "r.sync-conflict-20261201-120005-CCCCCCC.md")
        #expect(dropped(elsewhere, present: ["W", "B"]).isEmpty)
        // A copy another device saw hold it and then other bytes proves it as well as one of
        // its own device's.
        var overwrittenThere = Logs()
        let r5 = overwrittenThere.log("a", .edit, "R")
        let lost5 = overwrittenThere.log("a", .edit, "A", parents: [r5])
        _ = overwrittenThere.log("a", .arrival, "W")
        _ = overwrittenThere.log("c", .arrival, "A", path: copy)
        _ = overwrittenThere.log("c", .arrival, "B", path: copy)
        #expect(dropped(overwrittenThere, present: ["W"]) == [lost5])
        // A copy the user removed is not dropped.
        var removed = Logs()
        let r3 = removed.log("a", .edit, "R")
        _ = removed.log("a", .edit, "A", parents: [r3])
        let sighting = removed.log("a", .arrival, "A", path: copy)
        _ = removed.log("a", .delete, nil, parents: [sighting], path: copy)
        #expect(dropped(removed, present: ["R"]).isEmpty)
        // git's writes are never evidence: a version switched out by a checkout stays out.
        var checkout = Logs()
        let r4 = checkout.log("a", .edit, "R")
        _ = checkout.log("a", .edit, "feature", parents: [r4])
        _ = checkout.log("a", .gitCheckout, "main")
        #expect(dropped(checkout, present: ["main"]).isEmpty)
    }

    /// Issue 37's flaky session, the other way round: a's version lost a clash another
    /// device settled; a first sees another loser's copy, and its own comes seconds later,
    /// once that device's Syncthing has noticed it (10 s after a change by default). The
    /// pass after an arrival waits ``SharedFolder/dropSettled`` for it.
    @Test func aCopyMadeOnAnotherDeviceIsWaitedForAsLongAsItsSyncToolWaits() {
        let second: Int64 = 1_000_000_000
        var logs = Logs()
        let r = logs.log("a", .edit, "R")
        let lost = logs.log("a", .edit, "A", parents: [r])
        _ = logs.log("a", .arrival, "W")
        let arrived = logs.time
        _ = logs.log("a", .arrival, "B", path: "r.sync-conflict-20261201-120000-BBBBBBB.md")
        func dropped(_ logs: Logs, after wait: Int64, present: [String]) -> [VersionEvent.ID] {
            var graph = logs.graph
            return graph.droppedVersions(of: "r.md", madeBy: "a", present: Set(present.map(Self.digest)), now: arrived + wait, settled: SharedFolder.dropSettled)
        }
        #expect(dropped(logs, after: 12 * second, present: ["W", "B"]).isEmpty)
        // Its copy arrives: never dropped.
        var late = logs
        late.time = arrived + 12 * second
        _ = late.log("a", .arrival, "A", path: "r.sync-conflict-20261201-120000-CCCCCCC.md")
        #expect(dropped(late, after: SharedFolder.dropSettled, present: ["W", "B", "A"]).isEmpty)
        // No copy of it came, nor does any log name one: it was overwritten unseen.
        #expect(dropped(logs, after: SharedFolder.dropSettled, present: ["W", "B"]) == [lost])
    }

    @Test func aVersionWhoseCopyIsStillOnItsWayIsNotDropped() {
        // Issue 37's flaky session: a's edit A reached c first; b's W beat it there, so c's
        // Syncthing moved A to a copy, and a got W with c's merged version vector — replaced
        // with no clash, and no copy, on a. The copy holding A arrives seconds later: until
        // then nothing proves A dropped, however long a waits.
        let settled: Int64 = 5_000
        var logs = Logs()
        let r = logs.log("a", .edit, "R")
        _ = logs.log("a", .edit, "A", parents: [r])
        _ = logs.log("c", .arrival, "A")
        _ = logs.log("a", .arrival, "W")
        var graph = logs.graph
        for wait in [settled, 100 * settled, VersionGraph.lossWindow * 10] {
            #expect(graph.droppedVersions(of: "r.md", madeBy: "a", present: [Self.digest("W")], now: logs.time + wait, settled: settled).isEmpty)
        }
        // A copy of another clash appearing long after the arrival is no proof either.
        logs.time += VersionGraph.lossWindow + 1
        _ = logs.log("a", .arrival, "B", path: "r.sync-conflict-20261201-120100-BBBBBBB.md")
        graph = logs.graph
        #expect(graph.droppedVersions(of: "r.md", madeBy: "a", present: Set(["W", "B"].map(Self.digest)), now: logs.time + settled, settled: settled).isEmpty)
        // The copy arrives: present, never dropped.
        _ = logs.log("a", .arrival, "A", path: "r.sync-conflict-20261201-120000-WWWWWWW.md")
        graph = logs.graph
        #expect(graph.droppedVersions(of: "r.md", madeBy: "a", present: Set(["W", "B", "A"].map(Self.digest)), now: logs.time + settled, settled: settled).isEmpty)
    }

    @Test func aCopyOfAVersionADeviceLostInAClashIsThatVersion() {
        // Issue 37's seeds 2 and 4: c's folder was paused while a edited X into Y; when it
        // resumed, c's Syncthing put Y in place and moved c's X to a copy. X has a child (Y)
        // and no fold, which alone reads as a newer version with old bytes whose line has
        // not arrived; c's file replaced while the copy appeared says it is X itself.
        func copyVersion(copyAfter gap: Int64, replacedBy kind: VersionEvent.Kind = .arrival) -> (found: VersionEvent.ID?, x: VersionEvent.ID) {
            var logs = Logs()
            let x = logs.log("a", .edit, "X")
            let seen = logs.log("c", .arrival, "X")
            _ = logs.log("a", .edit, "Y", parents: [x])
            _ = logs.log("c", kind, "Y", parents: kind == .edit ? [seen] : [])
            logs.time += gap
            _ = logs.log("c", .arrival, "X", path: "r.sync-conflict-20261201-120000-CCCCCCC.md")
            var graph = logs.graph
            return (SharedFolder.version(ofCopyHolding: Self.digest("X"), in: &graph), x)
        }
        let lost = copyVersion(copyAfter: 1_000_000_000)
        #expect(lost.found == lost.x)
        // A copy seen long after the file was replaced, or a file edited here (not replaced), proves nothing.
        #expect(copyVersion(copyAfter: VersionGraph.lossWindow + 1).found == nil)
        #expect(copyVersion(copyAfter: 1_000_000_000, replacedBy: .edit).found == nil)
    }

    @Test func whatEveryDeviceMovedPastIsSuperseded() {
        var logs = Logs()
        let r = logs.log("a", .edit, "R")
        let seen = logs.log("b", .arrival, "R")
        let a1 = logs.log("a", .edit, "A1", parents: [r])
        let b1 = logs.log("b", .edit, "B1", parents: [seen])
        var graph = logs.graph
        // a and b diverged at R: R is their common ancestor, still needed.
        #expect(graph.superseded(present: [:]).isEmpty)
        let folded = logs.log("a", .fold, "F", parents: [a1, b1])
        _ = logs.log("b", .arrival, "F")
        graph = logs.graph
        // Both hold the fold now: everything before it is superseded, each device's last event kept.
        let gone = graph.superseded(present: [:])
        #expect(gone == [r, seen, a1, b1])
        #expect(!gone.contains(folded))
    }

    /// Issue 37's session (seed 4): c's edit lost in a clash (its file replaced, its copy
    /// overwritten by another loser's) while a and b folded theirs. Until c writes it back
    /// and folds it, what it was made from stays: the fold of the restored copy needs it.
    @Test func theParentOfAVersionLostInAClashIsNotSuperseded() {
        var logs = Logs()
        let r = logs.log("a", .edit, "R")
        let cSeen = logs.log("c", .edit, "R")
        _ = logs.log("b", .edit, "R")
        let lost = logs.log("c", .edit, "C1", parents: [cSeen])
        let a1 = logs.log("a", .edit, "A1", parents: [r])
        let b1 = logs.log("b", .edit, "B1", parents: [logs.lastEvent(of: "b")])
        _ = logs.log("a", .fold, "F", parents: [b1, a1])
        for device in ["b", "c"] { _ = logs.log(device, .arrival, "F") }
        var graph = logs.graph
        let gone = graph.superseded(present: [:], keepingHistory: ["a", "b", "c"])
        #expect(!gone.contains(cSeen) && !gone.contains(r), "\(gone)")
        #expect(!gone.contains(lost))
        // Written back and folded, the lost version has a child: the past before it goes.
        let cHolds = logs.lastEvent(of: "c")
        let restored = logs.log("c", .restore, "C1", parents: [lost], path: "r.sync-conflict-20261206-221604-FOLIOSV.md")
        let refold = logs.log("c", .fold, "G", parents: [cHolds, restored])
        for device in ["a", "b"] { _ = logs.log(device, .arrival, "G") }
        _ = logs.log("c", .delete, nil, parents: [restored], path: "r.sync-conflict-20261206-221604-FOLIOSV.md")
        graph = logs.graph
        let later = graph.superseded(present: [:], keepingHistory: ["a", "b", "c"])
        #expect(later.contains(cSeen) && later.contains(r) && later.contains(lost), "\(later)")
        #expect(!later.contains(refold))
    }
}

extension VersionGraphTests.Logs {
    /// The last event `device` logged.
    func lastEvent(of device: String) -> VersionEvent.ID {
        VersionEvent.ID(device: device, sequence: sequence[device]!)
    }

    /// The content `id` logged.
    func content(of id: VersionEvent.ID) -> String? { names[id] }
}

extension VersionGraph {
    /// The version `id` (a made one) as a copy holding its content would be found.
    fileprivate mutating func node(holdingID id: VersionEvent.ID, in logs: VersionGraphTests.Logs) -> VersionEvent.ID? {
        guard let version = events[id]?.version else { return nil }
        return node(holding: version)
    }
}
