using System.ComponentModel.DataAnnotations;
using System.Text.RegularExpressions;
using OrderService.Contracts;
using OrderService.Validation;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Api;

/// <summary>
/// The document's patterns are exact: a client that checks a customer id, a printable field or an Idempotency-Key
/// against the schema gets the same verdict as the server, for every string tried. ECMAScript regex semantics, as JSON
/// Schema uses, and the strings include the edges (empty, the maximum length, one over, each excluded character).
/// </summary>
public sealed class SchemaPatternTests
{
    private const string Alphabet = "aZ09_-~ !/:@[`{é\u0085\u009F\u00A0\t\n\u007F\u0000\uD83D\uDE00";

    public static IEnumerable<string> Samples(int maxLength)
    {
        var random = new Random(20261124);
        yield return "";
        yield return new string('a', maxLength);
        yield return new string('a', maxLength + 1);
        yield return new string(' ', maxLength);
        foreach (var c in Alphabet)
        {
            yield return c.ToString();
            yield return "ab" + c;
        }

        for (var i = 0; i < 2000; i++)
        {
            var length = random.Next(0, maxLength + 3);
            yield return string.Create(length, random, static (span, r) =>
            {
                for (var j = 0; j < span.Length; j++)
                {
                    span[j] = r.Next(3) == 0 ? Alphabet[r.Next(Alphabet.Length)] : (char)r.Next(0x20, 0x7F);
                }
            });
        }
    }

    /// <summary>As ECMAScript tests a pattern: .NET's $ also matches before a final newline, JavaScript's does not.</summary>
    private static bool Matches(Regex pattern, string value) => pattern.Match(value) is { Success: true } match && match.Length == value.Length;

    [Theory]
    [InlineData(RequestLimits.CustomerIdPattern, 64)]
    [InlineData(RequestLimits.PrintablePattern, 64)]
    public void A_body_pattern_means_to_a_client_what_it_means_to_validation(string regex, int maxLength)
    {
        var pattern = new Regex(regex, RegexOptions.ECMAScript);
        var attribute = new RegularExpressionAttribute(regex);
        foreach (var value in Samples(maxLength).Where(static value => value.Length > 0))
        {
            Matches(pattern, value).ShouldBe(attribute.IsValid(value), $"'{value}'");
        }
    }

    [Fact]
    public void Printable_refuses_control_characters_and_lone_surrogates_and_keeps_surrogate_pairs()
    {
        var printable = new PrintableAttribute();
        string[] refused = ["a\u0000", "\u001b[2J", "a\nb", "a\u0085", "\ud800", "a\udc00b", "\ude00\ud83d", "\ud83d"];
        foreach (var text in refused)
        {
            printable.IsValid(text).ShouldBeFalse($"'{text}'");
        }

        foreach (var kept in new[] { "", "~ !é€", "\ud83d\ude00", "a\ud83d\ude00b\ud83d\ude00" })
        {
            printable.IsValid(kept).ShouldBeTrue($"'{kept}'");
        }
    }

    [Fact]
    public void The_Idempotency_Key_pattern_accepts_exactly_what_validation_accepts()
    {
        var pattern = new Regex(RequestLimits.IdempotencyKeyPattern, RegexOptions.ECMAScript);
        foreach (var value in Samples(128))
        {
            var errors = default(ValidationErrors);
            OrderRequestRules.IdempotencyKey(value, ref errors);

            Matches(pattern, value).ShouldBe(!errors.Any, $"'{value}'");
        }
    }
}
