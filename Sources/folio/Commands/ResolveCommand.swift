import Foundation
import FolioFormat
import FolioSync
import FolioSystem

/// `folio resolve DIR COPY [--keep file|copy]`.
enum ResolveCommand: FolioCommand {
    static let name = "resolve"
    static let summary = "settle a conflict copy: show how it differs, keep the file or the copy"
    static let help = """
        usage: folio resolve DIR COPY [--keep file|copy]

        COPY is a conflict copy in DIR (as folio conflicts lists them). Without --keep,
        shows the front-matter fields in which the copy differs from the file (or that
        their bodies differ). --keep file deletes the copy; --keep copy puts the copy's
        content in the file, then deletes the copy. The next sync carries the result
        to the other replica.
        """
    static let arguments = ArgumentSpec(options: ["--keep"], positionals: 2...2, positionalNames: "DIR and COPY")

    @MainActor static func run(_ arguments: ParsedArguments) async -> Int32 {
        let root = arguments.positionals[0], copy = arguments.positionals[1]
        guard let original = ConflictCopies.originalOfAnyCopy(copy) else {
            Output.error("folio resolve: \(copy) is not a conflict copy (see folio conflicts \(root))")
            return ExitCode.usage
        }
        do {
            let copyBytes = try FileReading.contents(of: root + "/" + copy)
            let fileBytes = try AtomicFile.contentsIfPresent(root + "/" + original)
            switch arguments.options["--keep"]?.last {
            case nil:
                guard let fileBytes else {
                    Output.print("\(original) is gone; --keep copy puts the copy back as \(original)")
                    return ExitCode.success
                }
                if let file = try? Document(bytes: fileBytes), let other = try? Document(bytes: copyBytes) {
                    for change in ChangeReport.differences(from: file.fields, to: other.fields).compactMap(\.mappingValue) {
                        let key = change["key"]?.text ?? ""
                        let mine = change["old"].map(ChangeReport.display) ?? "(none)"
                        let theirs = change["new"].map(ChangeReport.display) ?? "(none)"
                        Output.print("\(key): file \(mine) | copy \(theirs)")
                    }
                    if file.bytes[file.layout.body] != other.bytes[other.layout.body] { Output.print("the bodies differ") }
                } else {
                    Output.print(fileBytes == copyBytes ? "the copy is the same as the file" : "the copy differs from the file")
                }
                return ExitCode.success
            case "file":
                try AtomicFile.remove(root + "/" + copy)
                Output.print("kept \(original); removed \(copy)")
            case "copy":
                try AtomicFile.write(copyBytes, to: root + "/" + original)
                try AtomicFile.remove(root + "/" + copy)
                Output.print("put \(copy) in \(original); removed the copy")
            case let other?:
                Output.error("folio resolve: --keep takes file or copy, not '\(other)'")
                return ExitCode.usage
            }
            return ExitCode.success
        } catch {
            Output.error("folio resolve: \(error)")
            return ExitCode.problems
        }
    }
}
