using System.Reflection;
using OrderService.Data;
using OrderService.Integration.Tests.StorePort;
using OrderService.Testing;
using Xunit;
using Xunit.Sdk;
using Xunit.v3;

namespace OrderService.Integration.Tests.Traits;

/// <summary>
/// <see cref="InlineDataAttribute"/> for a theory that runs one test over several stores: the row carries the
/// <see cref="StoreTraits"/> of the engine and layout its arguments name (an <see cref="Engine"/>, a
/// <see cref="StoreLayout"/>, or their names as strings).
/// </summary>
[AttributeUsage(AttributeTargets.Method, AllowMultiple = true)]
public sealed class StoreDataAttribute : DataAttribute
{
    private readonly object?[] _data;

    public StoreDataAttribute(params object?[] data)
    {
        _data = data;
        Traits = [.. StoreRows.TraitsOf(data).SelectMany(t => new[] { t.Key, t.Value })];
    }

    public override ValueTask<IReadOnlyCollection<ITheoryDataRow>> GetData(MethodInfo testMethod, DisposalTracker disposalTracker) =>
        new([ConvertDataRow(_data)]);

    public override bool SupportsDiscoveryEnumeration() => true;
}

/// <summary>The same traits for the rows of a <see cref="MemberDataAttribute"/>.</summary>
public static class StoreRows
{
    public static TRow WithStoreTraits<TRow>(this TRow row)
        where TRow : TheoryDataRowBase
    {
        foreach (var (name, value) in TraitsOf(((ITheoryDataRow)row).GetData()))
        {
            row.WithTrait(name, value);
        }

        return row;
    }

    internal static IEnumerable<KeyValuePair<string, string>> TraitsOf(IEnumerable<object?> arguments)
    {
        foreach (var argument in arguments)
        {
            var store = argument switch
            {
                Engine.Sqlite or "Sqlite" => StoreTraits.SQLite,
                Engine.PostgreSql or "PostgreSql" => StoreTraits.PostgreSql,
                _ => null,
            };
            if (store is not null)
            {
                yield return new(StoreTraits.Store, store);
            }

            if (argument is StoreLayout.Document or "Document")
            {
                yield return new(StoreTraits.Layout, StoreTraits.Document);
            }
        }
    }
}
