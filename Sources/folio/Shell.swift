/// Words printed for the user to paste into a shell (and for git to run).
enum Shell {
    /// `text` as one shell word: as it is when it needs no quoting, else in single quotes.
    static func quoted(_ text: String) -> String {
        text.allSatisfy { $0.isLetter || $0.isNumber || "/._-+".contains($0) } ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
