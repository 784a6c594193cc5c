using System.Reflection;
using System.Reflection.Emit;

namespace OrderService.Unit.Tests.Architecture;

/// <summary>What a compiled type uses, method bodies included: the scan behind <see cref="EngineDependencyTests"/>.</summary>
internal static class TypeUses
{
    /// <summary>Every type <paramref name="type"/> names: its base, interfaces, members' signatures and the types, methods and fields its IL refers to.</summary>
    public static HashSet<Type> Uses(Type type)
    {
        var found = new HashSet<Type>();
        void Add(Type? t)
        {
            if (t is null)
            {
                return;
            }

            if (t.HasElementType)
            {
                Add(t.GetElementType());
                return;
            }

            if (t.IsGenericType && !t.IsGenericTypeDefinition)
            {
                foreach (var argument in t.GetGenericArguments())
                {
                    Add(argument);
                }

                t = t.GetGenericTypeDefinition();
            }

            if (!t.IsGenericParameter)
            {
                found.Add(t);
            }
        }

        const BindingFlags all = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance | BindingFlags.Static | BindingFlags.DeclaredOnly;
        Add(type.BaseType);
        foreach (var implemented in type.GetInterfaces())
        {
            Add(implemented);
        }

        foreach (var field in type.GetFields(all))
        {
            Add(field.FieldType);
        }

        foreach (var method in type.GetMethods(all).Cast<MethodBase>().Concat(type.GetConstructors(all)))
        {
            if (method is MethodInfo info)
            {
                Add(info.ReturnType);
            }

            foreach (var parameter in method.GetParameters())
            {
                Add(parameter.ParameterType);
            }

            foreach (var local in method.GetMethodBody()?.LocalVariables ?? [])
            {
                Add(local.LocalType);
            }

            foreach (var referenced in BodyReferences(method))
            {
                Add(referenced);
            }
        }

        foreach (var nested in type.GetNestedTypes(all))
        {
            found.UnionWith(Uses(nested));
        }

        return found;
    }

    private static readonly Dictionary<short, OpCode> OpCodesByValue = typeof(OpCodes)
        .GetFields(BindingFlags.Public | BindingFlags.Static)
        .Select(f => (OpCode)f.GetValue(null)!)
        .ToDictionary(o => o.Value);

    /// <summary>The declaring types of the members, and the types, that <paramref name="method"/>'s IL names.</summary>
    private static IEnumerable<Type> BodyReferences(MethodBase method)
    {
        var il = method.GetMethodBody()?.GetILAsByteArray();
        if (il is null)
        {
            yield break;
        }

        var typeArguments = method.DeclaringType?.IsGenericType == true ? method.DeclaringType.GetGenericArguments() : null;
        var methodArguments = method.IsGenericMethod ? method.GetGenericArguments() : null;
        var position = 0;
        while (position < il.Length)
        {
            short value = il[position++];
            if (value == 0xFE)
            {
                value = unchecked((short)(0xFE00 | il[position++]));
            }

            var opCode = OpCodesByValue[value];
            switch (opCode.OperandType)
            {
                case OperandType.InlineType or OperandType.InlineMethod or OperandType.InlineField or OperandType.InlineTok:
                    var token = BitConverter.ToInt32(il, position);
                    position += 4;
                    Type? resolved = null;
                    try
                    {
                        var member = method.Module.ResolveMember(token, typeArguments, methodArguments);
                        resolved = member as Type ?? member?.DeclaringType;
                        if (member is MethodInfo called)
                        {
                            resolved = called.DeclaringType;
                        }
                    }
                    catch (ArgumentException)
                    {
                        // A token bound to a generic context the scan cannot supply: its open definition is still named elsewhere.
                    }

                    if (resolved is not null)
                    {
                        yield return resolved;
                    }

                    break;
                case OperandType.InlineSwitch:
                    var count = BitConverter.ToInt32(il, position);
                    position += 4 + (4 * count);
                    break;
                case OperandType.InlineBrTarget or OperandType.InlineI or OperandType.InlineSig or OperandType.InlineString or OperandType.ShortInlineR:
                    position += 4;
                    break;
                case OperandType.InlineI8 or OperandType.InlineR:
                    position += 8;
                    break;
                case OperandType.InlineVar:
                    position += 2;
                    break;
                case OperandType.ShortInlineBrTarget or OperandType.ShortInlineI or OperandType.ShortInlineVar:
                    position += 1;
                    break;
            }
        }
    }
}
