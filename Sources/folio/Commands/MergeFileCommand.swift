import Foundation
import FolioSystem
import FolioFormat
import FolioMerge

/// `folio merge-file`: `git merge-file`'s arguments, output and exit status, with
/// Folio's document merge for Markdown with front matter.
enum MergeFileCommand: FolioCommand {
    static let name = "merge-file"
    static let summary = "three-way merge of one file, as git merge-file (documents by field and section)"
    static let about = """
        Merges the changes from BASE to OTHER into CURRENT, as git merge-file does: the
        result replaces CURRENT (or goes to standard output with -p), conflicts are
        marked <<<<<<< / ======= / >>>>>>> (with ||||||| and the base under --diff3),
        labelled with the file names or the -L labels, and the exit status is the
        number of conflicts (at most 127); 255 on an error, 129 on bad usage.
        Markdown documents with YAML front matter (any version has front matter, or
        CURRENT or --path ends in .md or .markdown) are merged field by field and
        section by section: time changed on one side and servings on the other, or
        ingredients added at the end by both, merge cleanly. Anything else, or a
        version that does not parse, is merged line by line exactly as git does.
        --ours, --theirs and --union resolve conflicts to one side or to both.
        --diff-algorithm chooses the line diff as git's option does (default myers).
        As in git, -p is also --stdout, -q (no warnings) also --quiet, and --no-diff3
        undoes an earlier --diff3.
        """
    // git's flags, each spelling declared as git lists it (-p and --stdout are one).
    static let stdoutShort = Flag("-p", help: "write the result to standard output, not to CURRENT")
    static let stdout = Flag("--stdout", help: "the same as -p")
    /// Accepted for git's sake: Folio prints no merge warnings (not fold's or watch's --quiet).
    static let quietShort = Flag("-q", help: "no warnings (Folio prints none)")
    static let quiet = Flag("--quiet", help: "the same as -q")
    static let diff3 = Flag("--diff3", help: "show the base too, under |||||||")
    static let noDiff3 = Flag("--no-diff3", help: "undo an earlier --diff3")
    static let ours = Flag("--ours", help: "resolve conflicts to CURRENT's side")
    static let theirs = Flag("--theirs", help: "resolve conflicts to OTHER's side")
    static let union = Flag("--union", help: "resolve conflicts to both sides")
    static let label = Option<String>("-L", "LABEL", help: "a conflict marker's label: ours, base, theirs in turn (at most three)")
    static let markerSize = Option<Int>("--marker-size", "N", help: "the length of the conflict markers", default: "7", format: IntFormat(said: "a number"))
    static let path = Option<String>("--path", "NAME", help: "the file's name, for choosing the document merge", default: "CURRENT")
    static let diffAlgorithm = Option<DiffAlgorithm>("--diff-algorithm", help: "the line diff, as git's option", default: "myers")
    static let current = Positional("CURRENT", at: 0)
    static let base = Positional("BASE", at: 1)
    static let other = Positional("OTHER", at: 2)
    static let arguments = ArgumentSpec(
        flags: [stdoutShort, stdout, quietShort, quiet, diff3, noDiff3, ours, theirs, union],
        options: [label.info, markerSize.info, path.info, diffAlgorithm.info], forms: [[current, base, other]], positionalNames: "CURRENT, BASE and OTHER")

    /// git's status for bad usage.
    static let usageStatus: Int32 = 129

    @MainActor static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let files = [current, base, other].map { arguments.value(of: $0) }
        let labels = try arguments.values(of: label)
        guard labels.count <= 3 else {
            Output.error("folio merge-file: too many labels (-L takes at most three)\n\n\(help)")
            return usageStatus
        }
        var options = MergeOptions(
            oursLabel: labels.count > 0 ? labels[0] : files[0], baseLabel: labels.count > 1 ? labels[1] : files[1],
            theirsLabel: labels.count > 2 ? labels[2] : files[2])
        // Given together, --union counts over --theirs, and --theirs over --ours, in any order.
        if arguments.isSet(union) {
            options.favor = .union
        } else if arguments.isSet(theirs) {
            options.favor = .theirs
        } else if arguments.isSet(ours) {
            options.favor = .ours
        }
        options.showBase = arguments.isSet(diff3) && !arguments.isSet(noDiff3)
        if let size = try arguments.value(of: markerSize) { options.markerSize = size }
        if let algorithm = try arguments.value(of: diffAlgorithm) { options.algorithm = algorithm }
        var contents: [[UInt8]] = []
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else {
                Output.error("error: Could not stat \(file)")
                return 255
            }
            let bytes = Array(data)
            // git refuses binary files: a NUL byte in the first 8,000.
            if bytes.prefix(8000).contains(0) {
                Output.error("error: Cannot merge binary files: \(file)")
                return 255
            }
            contents.append(bytes)
        }
        let (current, base, other) = (contents[0], contents[1], contents[2])
        let name = try arguments.value(of: path) ?? files[0]
        let merged = FileMerge.merge(path: name, base: base, ours: current, theirs: other, options: options)
        if arguments.isSet(stdoutShort) || arguments.isSet(stdout) {
            FileHandle.standardOutput.write(Data(merged.bytes))
        } else {
            // Atomically, as every write Folio makes: a crash leaves the old file or the new, whole.
            do { try AtomicFile.write(merged.bytes, toFileNamedByUser: files[0]) } catch {
                Output.error("error: Could not write to \(files[0]): \(error.reason)")
                return 255
            }
        }
        return Int32(min(merged.conflicts, 127))
    }
}
