/// Shell completions for bash, zsh and fish, made from the commands' declarations (names,
/// summaries, flags, options and the values an option allows), so that they cannot offer
/// an option the parser refuses, nor miss one it takes.
enum ShellCompletions {
    /// The shells completions are made for.
    static let shells = ["bash", "zsh", "fish"]

    /// The completion script for `shell` (one of ``shells``).
    static func script(for shell: String, commands: [any FolioCommand.Type]) -> String? {
        switch shell {
        case "bash": bash(commands)
        case "zsh": zsh(commands)
        case "fish": fish(commands)
        default: nil
        }
    }

    /// Whether a positional names a folder (`DIR`, `A`, `B`, `REPO`): completed with folders only.
    static func namesFolder(_ positional: Positional) -> Bool { ["DIR", "A", "B", "REPO"].contains(positional.name) }

    /// The options a command takes, flags first, as the command line writes them.
    static func optionNames(_ command: any FolioCommand.Type) -> [String] {
        command.arguments.flags.map(\.name) + command.arguments.options.map(\.name) + ["--help"]
    }

    private static func bash(_ commands: [any FolioCommand.Type]) -> String {
        var cases: [String] = []
        for command in commands {
            let spec = command.arguments
            let valued = spec.options.map { option in
                let words = option.choices.map { "compgen -W \(quoted($0.joined(separator: " "))) -- \"$cur\"" }
                    ?? (option.valueName == "DIR" ? "compgen -d -- \"$cur\"" : "compgen -f -- \"$cur\"")
                return "            \(option.name)) COMPREPLY=($(\(words))); return ;;"
            }
            let folders = spec.forms.allSatisfy { $0.allSatisfy(namesFolder) } && !spec.forms.isEmpty
            cases.append("""
                    \(command.name))
                        case "$prev" in
                \(valued.joined(separator: "\n"))
                        esac
                        opts=\(quoted(optionNames(command).joined(separator: " ")))
                        \(folders ? "files=(-d)" : "files=(-f)")
                        ;;
                """)
        }
        return """
            # bash completion for folio (made by `folio completions bash` from its commands' declarations)
            _folio() {
                local cur prev opts files
                cur="${COMP_WORDS[COMP_CWORD]}"
                prev="${COMP_WORDS[COMP_CWORD-1]}"
                if [ "$COMP_CWORD" -eq 1 ]; then
                    COMPREPLY=($(compgen -W \(quoted((commands.map { $0.name } + ["help", "--help", "--version"]).joined(separator: " "))) -- "$cur"))
                    return
                fi
                case "${COMP_WORDS[1]}" in
            \(cases.joined(separator: "\n"))
                    help)
                        COMPREPLY=($(compgen -W \(quoted(commands.map { $0.name }.joined(separator: " "))) -- "$cur"))
                        return ;;
                    *) return ;;
                esac
                if [[ "$cur" == -* ]]; then
                    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
                else
                    COMPREPLY=($(compgen "${files[@]}" -- "$cur"))
                fi
            }
            complete -o filenames -F _folio folio

            """
    }

    private static func zsh(_ commands: [any FolioCommand.Type]) -> String {
        var functions: [String] = []
        for command in commands {
            let spec = command.arguments
            let folders = spec.forms.allSatisfy { $0.allSatisfy(namesFolder) } && !spec.forms.isEmpty
            let specs = spec.flags.map { "'\($0.name)[\(bracketSafe($0.help))]'" } + spec.options.map { option in
                let action = option.choices.map { "(\($0.joined(separator: " ")))" } ?? (option.valueName == "DIR" ? "_files -/" : "_files")
                return "'\(option.name)=[\(bracketSafe(option.help))]:\(option.valueName.lowercased()):\(action)'"
            } + ["'--help[show this command'\\''s help]'", "'*:argument:\(folders ? "_files -/" : "_files")'"]
            functions.append("""
                _folio_\(command.name.replacingOccurrences(of: "-", with: "_"))() {
                    _arguments \\
                        \(specs.joined(separator: " \\\n        "))
                }
                """)
        }
        let described = commands.map { "'\($0.name):\(bracketSafe($0.summary).replacingOccurrences(of: ":", with: "\\:"))'" }
        return """
            #compdef folio
            # zsh completion for folio (made by `folio completions zsh` from its commands' declarations)
            \(functions.joined(separator: "\n"))
            _folio() {
                local -a commands
                commands=(
                    \(described.joined(separator: "\n        "))
                )
                if (( CURRENT == 2 )); then
                    _describe 'command' commands
                    return
                fi
                local name=${words[2]//-/_}
                shift words
                (( CURRENT-- ))
                if (( $+functions[_folio_$name] )); then _folio_$name; fi
            }
            _folio "$@"

            """
    }

    private static func fish(_ commands: [any FolioCommand.Type]) -> String {
        var lines = [
            "# fish completion for folio (made by `folio completions fish` from its commands' declarations)",
            "complete -c folio -f",
            "complete -c folio -n __fish_use_subcommand -l version -d 'print the version'",
        ]
        for command in commands {
            lines.append("complete -c folio -n __fish_use_subcommand -a \(command.name) -d \(quoted(command.summary))")
            let when = "'__fish_seen_subcommand_from \(command.name)'"
            for flag in command.arguments.flags {
                lines.append("complete -c folio -n \(when) -l \(flag.name.dropFirst(2)) -d \(quoted(flag.help))")
            }
            for option in command.arguments.options {
                let values = option.choices.map { " -x -a \(quoted($0.joined(separator: " ")))" } ?? " -r -F"
                lines.append("complete -c folio -n \(when) -l \(option.name.dropFirst(2))\(values) -d \(quoted(option.help))")
            }
            lines.append("complete -c folio -n \(when) -F")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` in single quotes for a shell (a quote inside written `'\''`).
    static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// A description inside zsh's `[…]`: brackets and quotes taken out.
    private static func bracketSafe(_ text: String) -> String {
        String(text.map { "[]'".contains($0) ? " " : $0 })
    }
}
