using System.Text;

namespace OrderService.Deployment.Tests.Docs;

/// <summary>One simple command of a shell line: its leading NAME=value assignments and its words, quotes removed.</summary>
internal sealed record ShellCommand(IReadOnlyList<(string Name, string Value)> Assignments, IReadOnlyList<string> Words);

/// <summary>
/// Splits the text of a ```bash block into simple commands the way a reader's shell would, as far as the doc checks
/// need: line continuations, comments, quotes, the operators that chain commands (&amp;&amp; || | ; &amp;),
/// redirections, and the commands inside $(...), which become commands of their own.
/// </summary>
internal static class ShellCommands
{
    public static IReadOnlyList<ShellCommand> Parse(string text)
    {
        var commands = new List<ShellCommand>();
        foreach (var line in text.Replace("\\\n", " ", StringComparison.Ordinal).Split('\n'))
        {
            ParseLine(line, commands);
        }

        return commands;
    }

    private static void ParseLine(string line, List<ShellCommand> commands)
    {
        var words = new List<string>();
        var word = new StringBuilder();
        var inWord = false;
        var redirectNext = false;

        void EndWord()
        {
            if (inWord)
            {
                if (!redirectNext)
                {
                    words.Add(word.ToString());
                }

                redirectNext = false;
            }

            word.Clear();
            inWord = false;
        }

        void EndCommand()
        {
            EndWord();
            if (words.Count > 0)
            {
                commands.Add(Command(words));
            }

            words = [];
        }

        for (var i = 0; i < line.Length; i++)
        {
            var c = line[i];
            switch (c)
            {
                case '#' when !inWord:
                    i = line.Length;
                    break;
                case ' ' or '\t':
                    EndWord();
                    break;
                case '\'':
                    var close = line.IndexOf('\'', i + 1);
                    close = close < 0 ? line.Length : close;
                    word.Append(line, i + 1, close - i - 1);
                    inWord = true;
                    i = close;
                    break;
                case '"':
                    i = DoubleQuoted(line, i + 1, word, commands);
                    inWord = true;
                    break;
                case '$' when i + 1 < line.Length && line[i + 1] == '(':
                    i = Substitution(line, i + 2, word, commands);
                    inWord = true;
                    break;
                case '\\' when i + 1 < line.Length:
                    word.Append(line[++i]);
                    inWord = true;
                    break;
                case ';' or '|' or '&':
                    EndCommand();
                    if (i + 1 < line.Length && line[i + 1] == c)
                    {
                        i++;
                    }

                    break;
                case '>' or '<':
                    EndWord();
                    if (i + 1 < line.Length && line[i + 1] == c)
                    {
                        i++;
                    }

                    redirectNext = true;
                    break;
                default:
                    word.Append(c);
                    inWord = true;
                    break;
            }
        }

        EndCommand();
    }

    /// <summary>Reads a "..." string from <paramref name="start"/> (after the quote); returns the index of the closing quote.</summary>
    private static int DoubleQuoted(string line, int start, StringBuilder word, List<ShellCommand> commands)
    {
        for (var i = start; i < line.Length; i++)
        {
            switch (line[i])
            {
                case '"':
                    return i;
                case '\\' when i + 1 < line.Length:
                    word.Append(line[++i]);
                    break;
                case '$' when i + 1 < line.Length && line[i + 1] == '(':
                    i = Substitution(line, i + 2, word, commands);
                    break;
                default:
                    word.Append(line[i]);
                    break;
            }
        }

        return line.Length;
    }

    /// <summary>Reads $(...) from <paramref name="start"/> (after the parenthesis): its text is parsed as commands of its own.</summary>
    private static int Substitution(string line, int start, StringBuilder word, List<ShellCommand> commands)
    {
        var depth = 1;
        var i = start;
        for (; i < line.Length && depth > 0; i++)
        {
            depth += line[i] switch { '(' => 1, ')' => -1, _ => 0 };
        }

        var inner = line[start..Math.Max(start, i - 1)];
        ParseLine(inner, commands);
        word.Append("$(").Append(inner).Append(')');
        return i - 1;
    }

    private static ShellCommand Command(List<string> words)
    {
        var assignments = new List<(string, string)>();
        var at = 0;
        for (; at < words.Count && IsAssignment(words[at]); at++)
        {
            var equals = words[at].IndexOf('=', StringComparison.Ordinal);
            assignments.Add((words[at][..equals], words[at][(equals + 1)..]));
        }

        return new ShellCommand(assignments, words[at..]);
    }

    private static bool IsAssignment(string word)
    {
        var equals = word.IndexOf('=', StringComparison.Ordinal);
        return equals > 0 && (char.IsAsciiLetter(word[0]) || word[0] == '_') && word[..equals].All(c => char.IsAsciiLetterOrDigit(c) || c == '_');
    }
}
