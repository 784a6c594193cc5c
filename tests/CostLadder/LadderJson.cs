using System.Text.Json;
using System.Text.Json.Serialization;

namespace OrderService.CostLadder;

/// <summary>The source-generated JSON of rungs b to f: the bodies, the reply and the events' data.</summary>
[JsonSourceGenerationOptions(JsonSerializerDefaults.Web)]
[JsonSerializable(typeof(CreateOrder))]
[JsonSerializable(typeof(Payment))]
[JsonSerializable(typeof(Shipment))]
[JsonSerializable(typeof(OrderReply))]
internal sealed partial class LadderJson : JsonSerializerContext;
