using OrderService.Apis;
using OrderService.ServiceDefaults;

var builder = WebApplication.CreateBuilder(args);
builder.AddServiceDefaults();
builder.AddOrderStore();
builder.AddPayments();

var app = builder.Build();
app.UseProblems();
app.MapServiceDefaults();
app.MapOrdersApi();
app.MapCustomersApi();
app.Run();

/// <summary>Visible to WebApplicationFactory in the tests.</summary>
public partial class Program;
