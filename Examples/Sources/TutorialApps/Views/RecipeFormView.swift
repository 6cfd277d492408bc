#if canImport(SwiftUI)
import Folio
import SwiftUI

/// The recipe form: every field, ingredient rows of number, denominator and unit, and
/// the problems listed when it cannot be saved.
public struct RecipeFormView: View {
    let store: Store
    @State private var form = RecipeForm()
    @State private var problems: [String] = []

    /// A form that saves into `store`.
    public init(store: Store) { self.store = store }

    /// The form.
    public var body: some View {
        Form {
            Section("Recipe") {
                TextField("Name", text: $form.name)
                TextField("Summary", text: $form.summary)
                TextField("Prep time", text: $form.prepTime)
                TextField("Cook time", text: $form.cookTime)
                TextField("Total time", text: $form.totalTime)
                Stepper("Servings: \(form.servings)", value: $form.servings, in: 0...50)
            }
            Section("Ingredients") {
                ForEach($form.ingredients.indices, id: \.self) { index in
                    HStack {
                        TextField("Number", value: $form.ingredients[index].number, format: .number)
                        TextField("Unit", text: $form.ingredients[index].unit)
                        TextField("Name", text: $form.ingredients[index].name)
                    }
                }
                Button("Add ingredient") { form.ingredients.append(.init(name: "", number: 1)) }
            }
            Section("Directions") {
                ForEach($form.directions.indices, id: \.self) { index in TextField("Step", text: $form.directions[index]) }
                Button("Add step") { form.directions.append("") }
            }
            ForEach(problems, id: \.self) { Text($0).foregroundStyle(.red) }
            Button("Save") {
                Task {
                    switch await form.save(to: store) {
                    case .success: form = RecipeForm(); problems = []
                    case .failure(let why): problems = why.messages
                    }
                }
            }
        }
    }
}
#endif
