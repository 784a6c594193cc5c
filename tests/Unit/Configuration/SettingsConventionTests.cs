using System.ComponentModel.DataAnnotations;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using OrderService.Data.Configuration;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Configuration;

/// <summary>
/// The convention every options class gets from AddSettings, shown on a class written the way a new one
/// would be (plain data annotations, a nested section, a secret, a collection): each bad value becomes one
/// line naming the key, the value and what is allowed, and anything else stays an exception with its trace.
/// </summary>
public sealed class SettingsConventionTests
{
    [Theory]
    [InlineData("Sample:Threshold", "0", "Invalid setting Sample:Threshold = \"0\"; allowed: 1 to 50.")]
    [InlineData("Sample:Threshold", "lots", "Invalid setting Sample:Threshold = \"lots\"; allowed: a whole number, 1 to 50.")]
    [InlineData("Sample:Window", "soon", "Invalid setting Sample:Window = \"soon\"; allowed: a duration such as 00:00:30.")]
    [InlineData("Sample:Breaker:Mode", "c", "Invalid setting Sample:Breaker:Mode = \"c\"; allowed: a, b.")]
    [InlineData("Sample:Breaker:Kind", "Third", "Invalid setting Sample:Breaker:Kind = \"Third\"; allowed: First, Second.")]
    [InlineData("Sample:Breaker:Kind", "5", "Invalid setting Sample:Breaker:Kind = \"5\"; allowed: First, Second.")]
    [InlineData("Sample:Endpoint", "", "Invalid setting Sample:Endpoint = \"\"; allowed: a non-empty value.")]
    [InlineData("Sample:SigningKey", "short", "Invalid setting Sample:SigningKey = (value hidden: it may hold a credential); allowed: at least 16 characters.")]
    public void A_bad_value_of_any_options_class_is_one_line_naming_key_value_and_what_is_allowed(string key, string value, string expected)
    {
        var lines = Validate(new() { [key] = value });

        lines.ShouldHaveSingleItem().ShouldBe(expected);
    }

    [Fact]
    public void A_required_setting_that_is_absent_is_named()
    {
        Validate(new(), includeEndpoint: false).ShouldHaveSingleItem().ShouldBe("Invalid setting Sample:Endpoint = (not set); allowed: a non-empty value.");
    }

    [Fact]
    public void One_run_names_every_bad_value_even_when_one_cannot_be_converted()
    {
        var lines = Validate(new() { ["Sample:Threshold"] = "lots", ["Sample:Breaker:Mode"] = "c", ["Sample:Window"] = "soon" });

        lines.Count.ShouldBe(3, string.Join('\n', lines));
    }

    [Fact]
    public void A_list_element_the_binder_would_skip_silently_is_named()
    {
        Validate(new() { ["Sample:Ports:0"] = "80", ["Sample:Ports:1"] = "eighty" })
            .ShouldHaveSingleItem().ShouldBe("Invalid setting Sample:Ports:1 = \"eighty\"; allowed: a whole number.");
    }

    [Fact]
    public void A_conversion_the_binder_refuses_is_one_line_naming_its_key_and_value()
    {
        // The binder's own error, for a value bound outside AddSettings: recognised, and worded on one line.
        var configuration = new ConfigurationBuilder().AddInMemoryCollection(new Dictionary<string, string?> { ["Other:Port"] = "eighty" }).Build();
        var refused = Should.Throw<InvalidOperationException>(() => configuration.GetSection("Other").GetValue<int>("Port"));

        var line = SettingsErrors.Describe(refused).ShouldHaveSingleItem();

        line.ShouldStartWith("Invalid setting:");
        line.ShouldContain("Other:Port");
        line.ShouldContain("eighty");
    }

    [Fact]
    public void Good_values_pass()
    {
        Validate(new() { ["Sample:Threshold"] = "50", ["Sample:Breaker:Kind"] = "second", ["Sample:Window"] = "00:01:00", ["Sample:Ports:0"] = "80" }).ShouldBeEmpty();
    }

    [Fact]
    public void An_error_that_is_not_about_settings_is_left_to_crash_with_its_stack_trace()
    {
        SettingsErrors.Describe(new InvalidOperationException("a bug")).ShouldBeEmpty();
        SettingsErrors.Describe(new AggregateException(new OptionsValidationException("x", typeof(object), ["Invalid setting X = \"1\"; allowed: 2."]), new NullReferenceException()))
            .ShouldBeEmpty("a bug among configuration errors must not be hidden");
    }

    private static IReadOnlyList<string> Validate(Dictionary<string, string?> settings, bool includeEndpoint = true)
    {
        if (includeEndpoint)
        {
            settings.TryAdd("Sample:Endpoint", "http://collector:4317");
        }

        var configuration = new ConfigurationBuilder().AddInMemoryCollection(settings).Build();
        var services = new ServiceCollection();
        services.AddSettings<SampleOptions>(configuration, "Sample");
        using var provider = services.BuildServiceProvider();
        try
        {
            provider.GetRequiredService<IStartupValidator>().Validate();
            return [];
        }
        catch (Exception exception)
        {
            var lines = SettingsErrors.Describe(exception);
            lines.ShouldNotBeEmpty(exception.ToString());
            return lines;
        }
    }

    public enum SampleKind
    {
        First,
        Second,
    }

    public sealed class SampleOptions
    {
        [Required]
        public string? Endpoint { get; set; }

        [Range(1, 50)]
        public int Threshold { get; set; } = 5;

        public TimeSpan Window { get; set; } = TimeSpan.FromSeconds(30);

        [MinLength(16)]
        public string? SigningKey { get; set; }

        public List<int> Ports { get; set; } = [];

        public SampleBreaker Breaker { get; set; } = new();
    }

    public sealed class SampleBreaker
    {
        [AllowedValues("a", "b")]
        public string Mode { get; set; } = "a";

        public SampleKind Kind { get; set; }
    }
}
