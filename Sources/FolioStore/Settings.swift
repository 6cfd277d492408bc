import FolioFormat

/// The folder's `folio.yaml`: the app settings the tutorials keep (`sleepGoal`,
/// `notifications`) and any other keys, kept as they are.
public struct Settings: Sendable, Hashable {
    /// Hours of sleep to aim for.
    public var sleepGoal: Double?
    /// Whether to notify.
    public var notifications: Bool?
    /// Every key of the file, as read.
    public var fields: YAMLMapping

    /// The file's name at the folder root.
    public static let fileName = "folio.yaml"

    /// Empty settings.
    public init(sleepGoal: Double? = nil, notifications: Bool? = nil) {
        self.sleepGoal = sleepGoal
        self.notifications = notifications
        fields = YAMLMapping()
    }

    /// Reads settings from `folio.yaml`'s document.
    public init(_ document: Document) {
        fields = document.fields
        sleepGoal = fields["sleepGoal"].flatMap { if case .int(let n) = $0 { Double(n) } else if case .float(let n) = $0 { n } else { nil } }
        notifications = fields["notifications"].flatMap { if case .bool(let flag) = $0 { flag } else { nil } }
    }

    /// `document` with the changed settings written with minimal edits.
    public func updating(_ document: Document) throws(FormatError) -> Document {
        let old = Settings(document)
        var document = document
        if sleepGoal != old.sleepGoal {
            if let sleepGoal { try document.setValue(.float(sleepGoal), forKey: "sleepGoal") } else { try document.removeValue(forKey: "sleepGoal") }
        }
        if notifications != old.notifications {
            if let notifications { try document.setValue(.bool(notifications), forKey: "notifications") } else {
                try document.removeValue(forKey: "notifications")
            }
        }
        return document
    }
}
