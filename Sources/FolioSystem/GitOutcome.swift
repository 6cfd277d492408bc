/// What one run of git did: its exit status, standard output and standard error.
package struct GitOutcome: Sendable {
    /// The exit status (0: it succeeded).
    package var status: Int32
    /// Its standard output.
    package var output: [UInt8]
    /// Its standard error, as text.
    package var errors: String

    package init(status: Int32, output: [UInt8], errors: String) {
        (self.status, self.output, self.errors) = (status, output, errors)
    }

    /// Whether git exited 0.
    package var succeeded: Bool { status == 0 }

    /// The standard output as text, without the line feed that ends it.
    package var text: String {
        var text = String(decoding: output, as: UTF8.self)
        while text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}
