using OrderService.Apis;
using OrderService.Authorization;
using OrderService.Data.Hosting;
using OrderService.Problems;
using OrderService.ServiceDefaults;
using OrderService.Stores;

var checkOnly = ConfigurationCheck.IsAsked(args);
var builder = WebApplication.CreateBuilder(ConfigurationCheck.WithoutFlag(args));
builder.AddOrdersApi();
builder.AddServiceDefaults();
builder.AddOrderStore();
builder.AddStoreEngines();
builder.AddOrderAuthorization();
builder.AddTrafficLimits();

var app = builder.Build();
if (!app.SettingsAreValid())
{
    return 1; // each bad setting was printed as one line on stderr: key, value given, what is allowed
}

if (checkOnly)
{
    Console.WriteLine(ConfigurationCheck.Valid); // the settings would start the service; nothing was opened
    return 0;
}

app.UseApiProblems();
app.UseOrderAuthorization();
app.UseTrafficLimits();
app.MapServiceDefaults();
app.MapOrdersApi();
app.MapCustomersApi();
app.Run();
return 0;

/// <summary>Visible to WebApplicationFactory in the tests.</summary>
public partial class Program;
