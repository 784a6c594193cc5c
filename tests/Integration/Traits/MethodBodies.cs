using System.Reflection;
using System.Reflection.Emit;

namespace OrderService.Integration.Tests.Traits;

/// <summary>
/// Whether a class's compiled code uses a type's members: those named by every method body of the class and of its nested
/// types, which hold its async state machines and lambdas (a test that starts a cluster inside a test method shows in no
/// signature).
/// </summary>
internal static class MethodBodies
{
    private const BindingFlags Declared = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance | BindingFlags.Static | BindingFlags.DeclaredOnly;

    private static readonly Dictionary<short, OpCode> OpCodesByValue = typeof(OpCodes).GetFields(BindingFlags.Public | BindingFlags.Static)
        .Select(f => (OpCode)f.GetValue(null)!).ToDictionary(o => o.Value);

    public static bool Use(Type type, Type used) =>
        type.GetMethods(Declared).Cast<MethodBase>().Concat(type.GetConstructors(Declared)).Any(m => NamedMembers(m).Any(member => Is(member, used)))
        || type.GetNestedTypes(BindingFlags.Public | BindingFlags.NonPublic).Any(nested => Use(nested, used));

    /// <summary>A call, a field or a constructor of <paramref name="used"/>; a bare typeof names it without using it.</summary>
    private static bool Is(MemberInfo member, Type used) => member is not Type && member.DeclaringType == used;

    /// <summary>The members and types the body's instructions name (calls, field accesses, newobj, typeof).</summary>
    private static IEnumerable<MemberInfo> NamedMembers(MethodBase method)
    {
        var il = method.GetMethodBody()?.GetILAsByteArray() ?? [];
        var typeArguments = method.DeclaringType?.IsGenericType == true ? method.DeclaringType.GetGenericArguments() : null;
        var methodArguments = method.IsGenericMethod ? method.GetGenericArguments() : null;
        for (var offset = 0; offset < il.Length;)
        {
            var value = il[offset] == 0xFE ? (short)(0xFE00 | il[offset + 1]) : il[offset];
            var opCode = OpCodesByValue[value];
            offset += opCode.Size;
            if (opCode.OperandType is OperandType.InlineField or OperandType.InlineMethod or OperandType.InlineTok or OperandType.InlineType)
            {
                yield return method.Module.ResolveMember(BitConverter.ToInt32(il, offset), typeArguments, methodArguments)!;
            }

            offset += opCode.OperandType switch
            {
                OperandType.InlineNone => 0,
                OperandType.ShortInlineBrTarget or OperandType.ShortInlineI or OperandType.ShortInlineVar => 1,
                OperandType.InlineVar => 2,
                OperandType.InlineI8 or OperandType.InlineR => 8,
                OperandType.InlineSwitch => 4 + (4 * BitConverter.ToInt32(il, offset)),
                _ => 4,
            };
        }
    }
}
