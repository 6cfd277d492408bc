/// What one ``GitSync`` pass did: its events in order, and what was left for the user.
public struct GitSyncReport: Sendable, Equatable {
    /// Everything done or found, in order.
    public private(set) var events: [GitSyncEvent] = []
    /// Why the pass stopped after committing the edits (the remote unreachable, a push
    /// refused): what is committed is safe here, and a later pass pushes it. Nil when it
    /// went to the end.
    public internal(set) var stopped: GitSyncError?

    /// An empty report.
    public init() {}

    /// Notes `event`.
    mutating func record(_ event: GitSyncEvent) { events.append(event) }

    /// The clashes left as conflict copies: file and copy, for `folio resolve` (or an app)
    /// to settle.
    public var clashes: [(path: String, copy: String)] {
        events.compactMap { if case .clash(let path, let copy) = $0 { (path, copy) } else { nil } }
    }

    /// The files not committed, and why.
    public var leftOut: [(path: String, reason: String)] {
        events.compactMap { if case .leftOut(let path, let reason) = $0 { (path, reason) } else { nil } }
    }

    /// Whether something is left for the user: a clash to settle, a file left out.
    public var needsAttention: Bool { !clashes.isEmpty || !leftOut.isEmpty }
}
