namespace OrderService.Integration.Tests.Conformance.Infrastructure;

/// <summary>Fresh identifiers, so tests sharing one database never see each other's rows.</summary>
public static class Ids
{
    public static string NewCustomer() => "c-" + Guid.NewGuid().ToString("N")[..20];

    public static string NewKey() => "key-" + Guid.NewGuid().ToString("N");
}
