import FolioFolder
import FolioFormat
import FolioModel

/// The folder's `folio.yaml`: any keys an app keeps (the tutorials' `sleepGoal` and
/// `notifications` among them), read and written back losslessly. Read and set them
/// by typed keys with defaults, as `@AppStorage` does: `settings[.sleepGoal]`.
public struct Settings: Sendable, Hashable {
    /// Every key of the file. The keys set or changed here since these settings were read
    /// are written by ``Action/updateSettings(_:)`` — and only those, so that a copy an
    /// app holds does not write back the old value of a key another program changed
    /// meanwhile; a key taken out is removed from the file (settings made from scratch
    /// write every key they hold and remove nothing).
    public var fields: YAMLMapping
    /// The keys and values the file held when these settings were read from it.
    let fieldsRead: YAMLMapping

    /// The file's name at the folder root.
    public static let fileName = "folio.yaml"

    /// Settings holding `sleepGoal` and `notifications` when given, and nothing else.
    public init(sleepGoal: Double? = nil, notifications: Bool? = nil) {
        fields = YAMLMapping()
        fieldsRead = YAMLMapping()
        self.sleepGoal = sleepGoal
        self.notifications = notifications
    }

    /// Reads settings from `folio.yaml`'s document.
    public init(_ document: Document) {
        fields = document.fields
        fieldsRead = fields
    }

    /// The value of `key`, or its default when the file does not hold one of its type;
    /// set, it is written under the key's name.
    public subscript<Value>(key: SettingKey<Value>) -> Value {
        get { fields[key.name].flatMap(Value.init(settingValue:)) ?? key.defaultValue }
        set { fields[key.name] = newValue.settingValue }
    }

    /// Hours of sleep to aim for (nil: not set).
    public var sleepGoal: Double? {
        get { fields["sleepGoal"].flatMap(Double.init(settingValue:)) }
        set { fields["sleepGoal"] = newValue.map(YAMLValue.float) }
    }

    /// Whether to notify (nil: not set).
    public var notifications: Bool? {
        get { fields["notifications"].flatMap(Bool.init(settingValue:)) }
        set { fields["notifications"] = newValue.map(YAMLValue.bool) }
    }

    /// How conflict copies are named in the folder: the built-in names, and the tools and
    /// patterns listed under `conflictCopies:` (see ``ConflictCopyPattern``).
    public var conflictCopyNames: ConflictCopyNames {
        fields[ConflictCopyNames.settingKey].map { ConflictCopyNames(declared: $0.scalarTexts) } ?? .builtIn
    }

    /// What is wrong in `document` (`folio.yaml`, shown as `path`), each placed in it: a
    /// declaration under `kinds:` that cannot be used, and an entry of `conflictCopies:`
    /// that is neither a tool Folio knows nor a pattern (at that key's value).
    package static func problems(in document: Document, path: String) -> [Problem] {
        let declared = DeclaredKinds(document).problems.map { Problem($0, severity: .error) }
        let copyNames = Settings(document).conflictCopyNames.problems
        guard !copyNames.isEmpty else { return declared }
        let key = ConflictCopyNames.settingKey
        let pair = document.frontMatterRoot?.pair(forKey: key)
        var location = pair?.valueNode.start ?? pair?.keyNode.start ?? SourceLocation(path: path, line: 1, column: 1, offset: 0)
        location.path = path
        return declared + copyNames.map { Problem(at: location, "\($0)", severity: .error, field: key) }
    }

    /// The keys whose values differ between these settings and `other`, in file order.
    public func changedKeys(from other: Settings) -> [String] {
        let keys = fields.entries.map(\.key) + other.fields.entries.map(\.key).filter { fields[$0] == nil }
        return keys.filter { !Settings.same(fields[$0], other.fields[$0]) }
    }

    /// Whether two values are the same setting: equal, or the same number written as an
    /// integer and as a float (`8` and `8.0`), so that setting 8 over 8 writes nothing.
    static func same(_ a: YAMLValue?, _ b: YAMLValue?) -> Bool {
        if a == b { return true }
        // Through Double only when one is a float: two large integers must stay apart.
        guard let a, let b, a.isFloat || b.isFloat, let x = Double(settingValue: a), let y = Double(settingValue: b) else { return false }
        return x == y
    }

    /// `document` with the changed settings written with minimal edits.
    public func updating(_ document: Document) throws(FormatError) -> Document {
        let old = Settings(document)
        var document = document
        for entry in fields.entries where !Settings.same(fieldsRead[entry.key], entry.value) && !Settings.same(old.fields[entry.key], entry.value) {
            try document.setValue(entry.value, forKey: entry.key)
        }
        for key in fieldsRead.entries.map(\.key) where fields[key] == nil && old.fields[key] != nil {
            try document.removeValue(forKey: key)
        }
        return document
    }
}

/// A setting an app reads and writes by name, with the value it has when the file does
/// not hold one: `static let sleepGoal = SettingKey("sleepGoal", default: 8.0)`.
public struct SettingKey<Value: SettingValue>: Sendable, Hashable {
    /// The key in `folio.yaml`.
    public let name: String
    /// The value when the file holds none (or one of another type).
    public let defaultValue: Value

    /// A setting named `name`, `defaultValue` when unset.
    public init(_ name: String, default defaultValue: Value) {
        self.name = name
        self.defaultValue = defaultValue
    }
}

extension YAMLValue {
    /// Whether it is a float (`7.5`, `8.0`).
    fileprivate var isFloat: Bool { if case .float = self { true } else { false } }
}

extension SettingKey where Value == Double {
    /// NapBot's sleep goal, in hours (8 unless set).
    public static let sleepGoal = SettingKey("sleepGoal", default: 8)
}

extension SettingKey where Value == Bool {
    /// NapBot's notifications switch (off unless set).
    public static let notifications = SettingKey("notifications", default: false)
}

/// A type a setting can hold: read from and written as a YAML value.
public protocol SettingValue: Sendable, Hashable {
    /// The value a YAML value holds, or nil when it holds another type.
    init?(settingValue: YAMLValue)
    /// The value as YAML.
    var settingValue: YAMLValue { get }
}

extension Bool: SettingValue {
    /// `true` or `false`.
    public init?(settingValue value: YAMLValue) {
        guard case .bool(let flag) = value else { return nil }
        self = flag
    }

    /// As YAML.
    public var settingValue: YAMLValue { .bool(self) }
}

extension Int: SettingValue {
    /// An integer.
    public init?(settingValue value: YAMLValue) {
        guard case .int(let number) = value else { return nil }
        self = number
    }

    /// As YAML.
    public var settingValue: YAMLValue { .int(self) }
}

extension Double: SettingValue {
    /// A number, whole or not.
    public init?(settingValue value: YAMLValue) {
        switch value {
        case .int(let number): self = Double(number)
        case .float(let number): self = number
        default: return nil
        }
    }

    /// As YAML.
    public var settingValue: YAMLValue { .float(self) }
}

extension String: SettingValue {
    /// Text (a date or time written plainly counts as text).
    public init?(settingValue value: YAMLValue) {
        switch value {
        case .string(let text), .timestamp(let text): self = text
        default: return nil
        }
    }

    /// As YAML.
    public var settingValue: YAMLValue { .string(self) }
}
