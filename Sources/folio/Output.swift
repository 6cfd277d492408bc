import Foundation
import FolioSystem
/// Standard output and standard error.
enum Output {
    /// Prints `text` (a name in it should come through ``shown(_:)``); any control
    /// character left in it is escaped all the same.
    static func print(_ text: String) {
        FileHandle.standardOutput.write(Data((TextEscaping.text(text) + "\n").utf8))
    }

    /// Prints `text` to stderr, escaped likewise.
    static func error(_ text: String) {
        FileHandle.standardError.write(Data((TextEscaping.text(text) + "\n").utf8))
    }

    /// Writes `text` as it is, with no newline added: a script or a page Folio made
    /// (completions, the manual page), whose control characters are its own.
    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Prints a JSON document as it is (its strings are escaped by the encoder).
    static func printJSON(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}
