using OrderService.Apis;
using OrderService.Authorization;
using OrderService.ServiceDefaults;

var builder = WebApplication.CreateBuilder(args);
builder.AddServiceDefaults();
builder.AddOrderStore();
builder.AddPayments();
builder.AddOrderAuthorization();

var app = builder.Build();
app.UseProblems();
app.UseOrderAuthorization();
app.MapServiceDefaults();
app.MapOrdersApi();
app.MapCustomersApi();
app.Run();

/// <summary>Visible to WebApplicationFactory in the tests.</summary>
public partial class Program;
