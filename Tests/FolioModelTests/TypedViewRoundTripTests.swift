import FolioTestSupport
import Testing
@testable import FolioFormat
@testable import FolioModel

/// Every Fixtures/ and corpus file through its typed view: change one field, write,
/// and the line diff is that field only; read again and the change is there.
@Suite struct TypedViewRoundTripTests {
    @Test func changingOneTypedFieldChangesOnlyItsLines() throws {
        var checked = 0
        for path in Corpora.recordFiles() {
            let original = try Document(bytes: try Corpora.bytes(path), path: path)
            let kind = Kind.of(original, path: Corpora.relativePath(path))
            let edited: Document
            let allowed: ClosedRange<Int>?
            func lines(ofKey key: String) -> ClosedRange<Int>? {
                guard let pair = original.frontMatterRoot?.pair(forKey: key) else { return nil }
                return pair.keyNode.start.line...lineNumber(of: pair.valueNode.range.upperBound, in: original.bytes)
            }
            switch kind {
            case .recipe:
                var recipe = Recipe(original)
                // Unchanged view writes nothing.
                #expect(try recipe.updating(original).bytes == original.bytes, "\(path)")
                recipe.servings = (recipe.servings ?? 1) + 1
                edited = try recipe.updating(original)
                #expect(Recipe(edited) == recipe, "\(path)")
                allowed = lines(ofKey: "servings")
                // A new ingredient at the end touches only the ingredient list.
                var more = Recipe(original)
                more.ingredients.append(Ingredient(name: "Basilico", quantity: "10g"))
                let withIngredient = try more.updating(original)
                #expect(Recipe(withIngredient).ingredients == more.ingredients, "\(path)")
                // With no list yet, a new section goes at the end; a last line without a line break gets one.
                let lastLine = LineDiff.lines(original.bytes).count
                let listLines = lines(ofKey: "ingredients") ?? (Recipe(original).ingredients.isEmpty ? lastLine...lastLine : 0...0)
                #expect(LineDiff(original.bytes, withIngredient.bytes).oldLines.allSatisfy(listLines.contains), "\(path)")
            case .todo:
                var todo = Todo(original)
                #expect(try todo.updating(original).bytes == original.bytes, "\(path)")
                todo.done.toggle()
                edited = try todo.updating(original)
                #expect(Todo(edited) == todo, "\(path)")
                allowed = lines(ofKey: original["completed"] != nil ? "completed" : "done")
            case .workout:
                var workout = Workout(original)
                #expect(try workout.updating(original).bytes == original.bytes, "\(path)")
                workout.distance = (workout.distance ?? 0) + 1.5
                edited = try workout.updating(original)
                #expect(Workout(edited) == workout, "\(path)")
                allowed = lines(ofKey: "distance")
            case .quote:
                var quote = Quote(original)
                #expect(try quote.updating(original).bytes == original.bytes, "\(path)")
                quote.author = "Anonymous"
                edited = try quote.updating(original)
                #expect(Quote(edited) == quote, "\(path)")
                allowed = lines(ofKey: "author")
            default:
                continue
            }
            let diff = LineDiff(original.bytes, edited.bytes)
            if let allowed {
                #expect(diff.oldLines.allSatisfy(allowed.contains), "\(path): changed \(diff.oldLines), field is \(allowed)")
            } else {
                #expect(diff.oldLines.isEmpty, "\(path): adding a field changed \(diff.oldLines)")
            }
            #expect(edited.body == original.body || kind == .workout || kind == .todo, "\(path)")
            checked += 1
        }
        print("typed views: \(checked) records changed through their typed view, each diff within the field's lines")
        // The 33 typed records of Fixtures/, and the corpora's when present.
        #expect(checked >= 33)
    }
}
