import FolioFormat

/// The folder's `folio.yaml`: the app settings the tutorials keep (`sleepGoal`,
/// `notifications`) and any other keys, kept as they are.
public struct Settings: Sendable, Hashable {
    /// Hours of sleep to aim for.
    public var sleepGoal: Double?
    /// Whether to notify.
    public var notifications: Bool?
    /// Every key of the file, as read. Keys set or changed here are written by
    /// ``Action/updateSettings(_:)``; a key taken out is removed from the file when these
    /// settings were read from it (settings made from scratch remove nothing they never
    /// held). `sleepGoal` and `notifications` follow the properties above.
    public var fields: YAMLMapping
    /// The keys the file held when these settings were read from it.
    let keysRead: Set<String>

    /// The file's name at the folder root.
    public static let fileName = "folio.yaml"
    static let typedKeys: Set<String> = ["sleepGoal", "notifications"]

    /// Empty settings.
    public init(sleepGoal: Double? = nil, notifications: Bool? = nil) {
        self.sleepGoal = sleepGoal
        self.notifications = notifications
        fields = YAMLMapping()
        keysRead = []
    }

    /// Reads settings from `folio.yaml`'s document.
    public init(_ document: Document) {
        fields = document.fields
        keysRead = Set(fields.entries.map(\.key))
        sleepGoal = fields["sleepGoal"].flatMap { if case .int(let n) = $0 { Double(n) } else if case .float(let n) = $0 { n } else { nil } }
        notifications = fields["notifications"].flatMap { if case .bool(let flag) = $0 { flag } else { nil } }
    }

    /// `document` with the changed settings written with minimal edits.
    public func updating(_ document: Document) throws(FormatError) -> Document {
        let old = Settings(document)
        var document = document
        for entry in fields.entries where !Settings.typedKeys.contains(entry.key) && old.fields[entry.key] != entry.value {
            try document.setValue(entry.value, forKey: entry.key)
        }
        for key in keysRead.subtracting(Settings.typedKeys).sorted() where fields[key] == nil && old.fields[key] != nil {
            try document.removeValue(forKey: key)
        }
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
