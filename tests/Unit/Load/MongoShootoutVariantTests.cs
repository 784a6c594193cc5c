using System.ComponentModel.DataAnnotations;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Options;
using OrderService.Data;
using OrderService.Data.MongoDb;
using OrderService.Data.Resilience;
using OrderService.Load.Shootout;
using OrderService.Unit.Tests.Commands;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Load;

/// <summary>The shoot-out's MongoDB variants are configuration only: each binds, validates and builds the write concern its row claims.</summary>
public sealed class MongoShootoutVariantTests
{
    [Theory]
    [InlineData("baseline", "PerCall", """{ "w" : 1, "j" : false }""", null)]
    [InlineData("v1-shared-session", "PerRequest", """{ "w" : 1, "j" : false }""", null)]
    [InlineData("v4-journaled", "PerRequest", """{ "w" : 1, "j" : true }""", null)]
    [InlineData("v5-group-commit", "PerRequest", """{ "w" : 1, "j" : true }""", MongoTarget.GroupCommitServer)]
    [InlineData("majority", "PerRequest", """{ "w" : "majority", "wtimeout" : 1000.0, "j" : true }""", null)]
    public void Each_variant_validates_and_sends_the_write_concern_it_names(string name, string unitOfWork, string writeConcern, string? server)
    {
        var variant = VariantCatalog.For(StoreKind.MongoDb).Single(v => v.Name == name);
        var configuration = new ConfigurationBuilder()
            .AddInMemoryCollection(variant.Configuration("mongodb://127.0.0.1:1/?directConnection=true").Select(p => new KeyValuePair<string, string?>(p.Key, p.Value)))
            .Build();
        var options = configuration.GetSection(StoreOptions.SectionName).Get<StoreOptions>()!;
        var mongo = configuration.GetSection(MongoStoreOptions.SectionName).Get<MongoStoreOptions>()!;

        new MongoStoreOptionsValidator(Options.Create(new ResilienceOptions())).Validate(null, mongo).Succeeded
            .ShouldBeTrue();
        Validator.TryValidateObject(options, new ValidationContext(options), null, validateAllProperties: true).ShouldBeTrue("the layout and the provider go together");
        options.Provider.ShouldBe(StoreProvider.MongoDb);
        options.UnitOfWork.ToString().ShouldBe(unitOfWork);
        var settings = MongoSettings.Build(configuration.GetConnectionString("Orders")!, mongo,
            new ResilienceOptions());
        Rendered.Bson(settings.Client.WriteConcern.ToBsonDocument()).ShouldBe(writeConcern);
        variant.Server.ShouldBe(server);
        variant.Key.ShouldBe($"mongodb/document/{name}");
    }

    [Fact]
    public void The_majority_row_also_reads_at_majority() =>
        VariantCatalog.For(StoreKind.MongoDb).Single(v => v.Name == "majority").Settings["Store:MongoDb:ReadConcern"].ShouldBe("Majority");

    [Fact]
    public void MongoDB_is_named_mongodb_or_mongo_on_the_command_line()
    {
        Variant.ParseStore("mongodb").ShouldBe(StoreKind.MongoDb);
        Variant.ParseStore("Mongo").ShouldBe(StoreKind.MongoDb);
    }
}
