import FolioFolder
import FolioFormat
import FolioSystem

/// What some paths of a folder hold right now, read from disk for the store to
/// compare with what it knows (``StoreState/actions(toMatch:)``): the effect half of
/// following the disk; deciding what changed is pure.
public struct DiskSnapshot: Sendable, Equatable {
    /// What one path holds.
    public enum Entry: Sendable, Equatable {
        /// A file and its bytes.
        case file([UInt8])
        /// A folder and the bytes of every record file under it, by path relative to the root.
        case folder([String: [UInt8]])
        /// Nothing (or something that is neither file nor folder).
        case missing
        /// Something that could not be read: the store leaves what it knows alone.
        case unreadable(SystemError)
    }

    /// The paths read, relative to the root (`""` is the root folder itself).
    public var entries: [String: Entry]
    /// The store's ``WriteLog/mark`` when the reading began, if the reader noted it: a
    /// path the store began writing after it is read again rather than taken from here.
    public var readAfterWrites: Int?
    /// Whether a file read by its path has other names (hard links): writing through one
    /// name changes them all, and inotify reports only the name written, so the reader
    /// should read the whole folder again.
    public var changedFileHasOtherNames = false
    /// Every record file read, and whether it has other names (hard links): a watcher
    /// keeps them, since one of those removed (perhaps just written through) must have
    /// its other names read.
    public var hasOtherNames: [String: Bool] = [:]
    /// Every file read (what ``hasOtherNames`` holds a word on).
    public var foundFiles: [String] { Array(hasOtherNames.keys) }
    /// What was left out and why (a name with a twin spelling, a file or folder that
    /// could not be read), as a fresh load would report it.
    public var problems: [SystemError] = []
    /// Every file read, with its stamp once read: what another reader of the folder at
    /// the same moment (the fold's history) takes rather than reading it again. Not part
    /// of what a snapshot is equal by: two reads of the same disk are the same snapshot.
    package var reads: [FileRead] = []

    /// Equal when they read the same (``reads`` aside: the stamps say when, not what).
    public static func == (left: DiskSnapshot, right: DiskSnapshot) -> Bool {
        left.entries == right.entries && left.readAfterWrites == right.readAfterWrites
            && left.changedFileHasOtherNames == right.changedFileHasOtherNames
            && left.hasOtherNames == right.hasOtherNames && left.problems == right.problems
    }

    /// A snapshot of these entries.
    public init(entries: [String: Entry]) { self.entries = entries }

    /// Reads `paths` under `root` as ``read(_:under:)`` does, noting first how far the
    /// store's writes (`writes`) had got.
    public static func read(_ paths: some Sequence<String>, under root: RootedFolder, notingWrites writes: WriteLog) -> DiskSnapshot {
        let mark = writes.mark
        var snapshot = read(paths, under: root)
        snapshot.readAfterWrites = mark
        return snapshot
    }

    /// Reads `paths` under `root`: each file's bytes, or each folder's record files.
    public static func read(_ paths: some Sequence<String>, under root: RootedFolder) -> DiskSnapshot {
        var entries: [String: Entry] = [:]
        var changedFileHasOtherNames = false
        var hasOtherNames: [String: Bool] = [:]
        var problems: [SystemError] = []
        var reads: [FileRead] = []
        // Reading the root reads everything, `folio.yaml` included.
        let paths = Array(paths)
        let all = paths.contains("") ? paths + [Settings.fileName] : paths
        var pending = all
        var index = 0
        while index < pending.count {
            let asked = pending[index]
            index += 1
            // A name beyond ASCII is read under the spelling on disk; two spellings of it
            // (NFC and NFD) are both left out, as a fresh load leaves them.
            var path = asked
            switch spellings(of: root[asked]) {
            case .twins:
                entries[asked] = .missing
                problems.append(SystemError(operation: .readDirectory, path: root[asked].path, code: Syscall.normalizationTwin))
                // Left out, but written through: a file with other names changed them too.
                // Not there any more, or not readable: nothing written through it reaches another name now.
                if let names = try? FileReading.names(ofFileAt: root[asked]), names > 1 { changedFileHasOtherNames = true }
                continue
            case .spelled(let onDisk):
                path = onDisk
                // A folder of the name is gone and a file of the other spelling is there
                // (once its twin): that file is read too, nothing else tells of it.
                let askedParts = asked.split(separator: "/"), onDiskParts = onDisk.split(separator: "/")
                if let first = Array(zip(askedParts, onDiskParts)).firstIndex(where: { !$0.0.utf8.elementsEqual($0.1.utf8) }),
                   first < onDiskParts.count - 1 {
                    pending.append(onDiskParts[...first].joined(separator: "/"))
                }
            case .asAsked:
                break
            }
            let full = root[path]
            do {
                let stamp = FileStamp(try full.linkStatus())
                if stamp.isDirectory {
                    let walk = try FolderScan.markdownFiles(under: full)
                    var files: [String: [UInt8]] = [:]
                    for file in walk.paths {
                        let relative = path.isEmpty ? file : path + "/" + file
                        do {
                            if let (bytes, names, stamp) = try FileReading.contentsAndNames(ifPresent: root[relative]) {
                                files[relative] = bytes
                                reads.append(FileRead(path: relative, bytes: bytes, stamp: stamp))
                                hasOtherNames[relative] = names > 1
                            }
                        } catch where Self.isGone(error) {
                            // Gone since the walk (its folder too, or made a file or a link): simply not there.
                        } catch {
                            // One file that cannot be read is left as the store knows it, not its whole folder.
                            entries[relative] = .unreadable(error)
                            problems.append(error)
                        }
                    }
                    entries[path] = .folder(files)
                    // A subfolder that cannot be read is left as the store knows it (one that vanished is simply gone).
                    for problem in walk.problems where problem.code != Syscall.noSuchFile && problem.path.hasPrefix(root.path + "/") {
                        problems.append(problem)
                        // Twin spellings of one name are left out, as a fresh load leaves them.
                        entries[String(problem.path.dropFirst(root.path.count + 1))] =
                            problem.code == Syscall.normalizationTwin ? .missing : .unreadable(problem)
                    }
                } else if stamp.isRegularFile {
                    // Only records and folio.yaml are read: a video being written or a .git pack is not the store's.
                    // A name with a twin spelling in its folder is left out, as a fresh load leaves it.
                    let read = path == Settings.fileName || FolderRules.isRecordPath(path) ? try FileReading.contentsAndNames(ifPresent: full) : nil
                    entries[path] = read.map { .file($0.bytes) } ?? .missing
                    if let read {
                        reads.append(FileRead(path: path, bytes: read.bytes, stamp: read.stamp))
                        hasOtherNames[path] = read.names > 1
                        if read.names > 1 { changedFileHasOtherNames = true }
                    }
                } else {
                    entries[path] = .missing
                }
            } catch where Self.isGone(error) {
                // Reached only through a link now: a fresh load never sees it there either.
                entries[path] = .missing
            } catch {
                entries[path] = .unreadable(error)
                problems.append(error)
            }
        }
        var snapshot = DiskSnapshot(entries: entries)
        snapshot.changedFileHasOtherNames = changedFileHasOtherNames
        snapshot.problems = problems
        snapshot.reads = reads
        snapshot.hasOtherNames = hasOtherNames
        return snapshot
    }

    /// Whether `error` says nothing is at the path any more: removed, or a folder on the
    /// way made a file or a symbolic link (never followed below a root).
    static func isGone(_ error: SystemError) -> Bool {
        error.isMissingPath || error.code == Syscall.symbolicLinkInTheWay
    }

    /// How the name of `path` is spelled on disk.
    enum Spelling: Equatable {
        /// As asked (an ASCII name, or no other spelling there).
        case asAsked
        /// Spelled otherwise on disk (NFD asked, NFC there, or the reverse): this path.
        case spelled(String)
        /// Two spellings of the name are there.
        case twins
    }

    /// How `path` is spelled on disk, component by component: only a name beyond ASCII
    /// can be spelled two ways, and its folder is listed then. A component with two
    /// spellings there makes the path `.twins` (a fresh load leaves both out).
    static func spellings(of path: RootedPath) -> Spelling {
        guard !path.relative.string.utf8.allSatisfy({ $0 < 0x80 }) else { return .asAsked }
        var walked = RelativePath.root
        var respelled = false
        for component in path.relative.string.split(separator: "/").map(String.init) {
            var spelled = component
            // A folder that cannot be listed leaves the name as asked: reading the file by it then reports what is wrong, in `problems`.
            if !component.utf8.allSatisfy({ $0 < 0x80 }), let names = try? path.folder[walked].entries().map(\.name) {
                // `==` on String is canonical equivalence: every spelling of the name.
                let onDisk = names.filter { $0 == component }
                if Set(onDisk.map { Array($0.utf8) }).count > 1 { return .twins }
                if let there = onDisk.first, Array(there.utf8) != Array(component.utf8) {
                    (spelled, respelled) = (there, true)
                }
            }
            walked = walked.appending(spelled)
        }
        return respelled ? .spelled(walked.string) : .asAsked
    }
}
