import Folio

/// NapBot's settings: a sleep goal and a notifications switch, persisted in the
/// folder's `folio.yaml` (any other key there is kept), with a notice when one changes.
@MainActor
public final class SettingsStore {
    /// The folder's store.
    public let store: Store

    /// The settings of `store`.
    public init(store: Store) { self.store = store }

    /// Hours of sleep to aim for (8 until set).
    public var sleepGoal: Double { store.settings[.sleepGoal] }
    /// Whether NapBot notifies (off until set).
    public var notificationsEnabled: Bool { store.settings[.notifications] }

    /// Sets the sleep goal; written to `folio.yaml`.
    @discardableResult
    public func setSleepGoal(_ hours: Double) async -> ActionResult { await set(.sleepGoal, hours) }

    /// Turns notifications on or off; written to `folio.yaml`.
    @discardableResult
    public func setNotifications(_ enabled: Bool) async -> ActionResult { await set(.notifications, enabled) }

    private func set<Value>(_ key: SettingKey<Value>, _ value: Value) async -> ActionResult {
        var settings = store.settings
        settings[key] = value
        return await store.dispatch(.updateSettings(settings))
    }

    /// The names of the settings that changed, each time some do (here or in another program).
    public func changes() -> AsyncStream<[String]> {
        let changes = store.changes()
        return AsyncStream { continuation in
            let task = Task {
                for await change in changes where !change.settingKeys.isEmpty { continuation.yield(change.settingKeys) }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
