namespace OrderService.Tools;

/// <summary><c>dotnet run --project tools/ConfigurationReference -- docs/configuration.md</c></summary>
internal static class Program
{
    public static int Main(string[] args)
    {
        if (args.Length != 1)
        {
            Console.Error.WriteLine($"Usage: the page's path, e.g. {ConfigurationReference.PagePath}");
            return 2;
        }

        Console.WriteLine($"Wrote {ConfigurationReference.Write(args[0])}");
        return 0;
    }
}
