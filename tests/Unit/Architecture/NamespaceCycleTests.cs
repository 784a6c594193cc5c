using System.Reflection;
using OrderService.Data;
using OrderService.Data.MongoDb;
using OrderService.Data.PostgreSql;
using OrderService.Data.Sqlite;
using OrderService.Data.SqlServer;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Architecture;

/// <summary>No two namespaces of src use each other, directly or through others (signatures and method bodies).</summary>
public sealed class NamespaceCycleTests
{
    private static readonly Assembly[] Src =
    [
        typeof(ServiceDefaults.ConfigurationCheck).Assembly, typeof(IOrderStore).Assembly, typeof(SqliteStores).Assembly,
        typeof(PostgreSqlStores).Assembly, typeof(SqlServerStores).Assembly, typeof(MongoStores).Assembly,
    ];

    [Fact]
    public void No_namespace_of_src_takes_part_in_a_cycle()
    {
        var uses = new Dictionary<string, HashSet<string>>(StringComparer.Ordinal);
        var example = new Dictionary<(string, string), string>();
        foreach (var type in Src.SelectMany(a => a.GetTypes()).Where(t => Ours(t) && !t.IsNested))
        {
            var from = uses.TryGetValue(type.Namespace!, out var set) ? set : uses[type.Namespace!] = [];
            foreach (var used in TypeUses.Uses(type).Where(u => Src.Contains(u.Assembly) && Ours(u)
                && u.Namespace != type.Namespace))
            {
                from.Add(used.Namespace!);
                example.TryAdd((type.Namespace!, used.Namespace!), $"{type.Name} uses {used.Name}");
            }
        }

        var cycles = Cycles(uses);

        cycles.ShouldBeEmpty(string.Join("; ", example.Where(e => cycles.Any(c => c.Split(" <-> ").Contains(e.Key.Item1)
            && c.Split(" <-> ").Contains(e.Key.Item2))).Select(e => $"{e.Key.Item1} -> {e.Key.Item2} ({e.Value})")));
    }

    /// <summary>Our namespaces; generated code (the request delegate generator's, say) has its own.</summary>
    private static bool Ours(Type type) => type.Namespace?.StartsWith("OrderService", StringComparison.Ordinal) == true;

    [Fact]
    public void The_search_names_a_cycle_through_three_namespaces()
    {
        var uses = new Dictionary<string, HashSet<string>>
        {
            ["A"] = ["B"], ["B"] = ["C"], ["C"] = ["A"], ["D"] = ["A"],
        };

        Cycles(uses).ShouldBe(["A <-> B <-> C"]);
    }

    /// <summary>Each strongly connected set of namespaces larger than one, named in order.</summary>
    private static List<string> Cycles(Dictionary<string, HashSet<string>> uses)
    {
        // Tarjan's algorithm: a node's low link is the earliest node on the stack it reaches.
        var index = new Dictionary<string, int>(StringComparer.Ordinal);
        var low = new Dictionary<string, int>(StringComparer.Ordinal);
        var stack = new Stack<string>();
        var cycles = new List<string>();
        void Visit(string node)
        {
            index[node] = low[node] = index.Count;
            stack.Push(node);
            foreach (var next in uses.GetValueOrDefault(node) ?? [])
            {
                if (!index.TryGetValue(next, out var seen))
                {
                    Visit(next);
                    low[node] = Math.Min(low[node], low[next]);
                }
                else if (stack.Contains(next))
                {
                    low[node] = Math.Min(low[node], seen);
                }
            }

            if (low[node] == index[node])
            {
                var members = new List<string>();
                string member;
                do
                {
                    member = stack.Pop();
                    members.Add(member);
                }
                while (member != node);
                if (members.Count > 1)
                {
                    cycles.Add(string.Join(" <-> ", members.Order(StringComparer.Ordinal)));
                }
            }
        }

        foreach (var node in uses.Keys.Order(StringComparer.Ordinal).Where(n => !index.ContainsKey(n)))
        {
            Visit(node);
        }

        return cycles;
    }
}
