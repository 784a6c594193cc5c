using OrderService.Integration.Tests.Conformance.Infrastructure;



namespace OrderService.Integration.Tests.Conformance.Stores;

/// <summary>The switch combinations that mean something for the document layout: the defaults with each batch filter.</summary>
public static class DocumentSwitches
{
    public static IEnumerable<string> Keys =>
        Enum.GetValues<OrderService.Data.BatchFilter>().Select(filter => (SwitchSet.Defaults with { BatchFilter = filter }).Key);
}
