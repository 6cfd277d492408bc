import Foundation
import FolioFormat
import FolioModel

extension Reducer {
    /// Recipes, quotes, any record's field or file, and the settings.
    static func reduceRecords(_ action: RecordAction, _ state: inout StoreState, _ contents: [String: [UInt8]], _ outcome: inout Outcome) {
        switch action {
        case .addRecipe(let recipe):
            guard accepts(recipe.problems, adding: "recipe", &outcome) else { break }
            create(recipe.title, kind: .recipe, in: &state, &outcome) { try recipe.newDocument() }
        case .updateRecipe(let path, let recipe):
            guard isRecord(path, of: .recipe, in: state, &outcome), accepts(recipe.problems, saving: "recipe", at: path, &outcome) else { break }
            edit(path, in: &state, contents, &outcome) { try recipe.updating($0) }
        case .removeRecipe(let path):
            if isRecord(path, of: .recipe, in: state, &outcome) { delete(path, in: &state, &outcome) }
        case .removeRecord(let path):
            delete(path, in: &state, &outcome)
        case .setField(let path, let key, let value):
            edit(path, in: &state, contents, &outcome) { try $0.settingValue(value, forKey: key) }
        case .addRecord(let kind, let fields, let body, let name, let folder):
            addRecord(kind, fields: fields, body: body, name: name, folder: folder ?? state.kindRules.folder(of: kind), &state, &outcome)
        case .updateFields(let path, let setting, let removing, let body):
            updateFields(path, setting: setting, removing: removing, body: body, &state, contents, &outcome)
        case .replaceContent(let path, let bytes, let expecting):
            replaceContent(path, with: bytes, expecting: expecting, &state, contents, &outcome)
        case .addQuote(let quote):
            guard accepts(quote.problems, adding: "quote", &outcome) else { break }
            create(String(quote.text.prefix(40)), kind: .quote, in: &state, &outcome) { try quote.newDocument() }
        case .updateSettings(let settings):
            do {
                let old = state.settingsBytes
                let document = try old.map { try Document(yamlBytes: $0, path: Settings.fileName) }
                    ?? Document(yamlBytes: [], path: Settings.fileName)
                let updated = try settings.updating(document)
                // No file and nothing to write: no empty folio.yaml, no notice.
                if updated.bytes != old ?? [] {
                    outcome.effects.append(.write(path: Settings.fileName, bytes: updated.bytes, replacing: old.map(Fingerprint.init)))
                    state.settingsBytes = updated.bytes
                    state.kindRules.declared = DeclaredKinds(updated)
                    let now = Settings(updated)
                    outcome.changes.settingKeys = now.changedKeys(from: state.settings)
                    state.settings = now
                    outcome.changes.settingsChanged = true
                }
            } catch {
                // folio.yaml that does not parse is left as it is, as any record's file.
                let unparseable = (error as? FormatError).map { $0.kind != .invalidEdit } ?? false
                outcome.errors.append(StoreError(unparseable ? .unparseable : .invalidEdit, path: Settings.fileName, "\(error)"))
            }
        }
    }
}
