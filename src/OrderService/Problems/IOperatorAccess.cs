namespace OrderService.Problems;

/// <summary>Who reads the store's own words (driver, database, role) in a 503 and at /health/detail.</summary>
public interface IOperatorAccess
{
    bool IsOperator(HttpContext context);
}
