// CecilCount reads an assembly with Mono.Cecil (Debian's Cecil 0.9.5) and
// prints what it holds: types, methods, IL instructions, the ten most used
// opcodes and a checksum over every member name and operand kind. A driver
// for the real-program suite: the work is Cecil's, not ours.
using System;
using System.Collections.Generic;
using System.Linq;
using Mono.Cecil;
using Mono.Cecil.Cil;

static class CecilCount
{
    static int Main(string[] args)
    {
        var asm = AssemblyDefinition.ReadAssembly(args[0]);
        int types = 0, methods = 0, bodies = 0, instructions = 0, fields = 0, handlers = 0;
        var opcodes = new Dictionary<string, int>();
        long check = 17;
        foreach (var module in asm.Modules)
        {
            foreach (var type in module.GetTypes())
            {
                types++;
                check = Mix(check, type.FullName);
                foreach (var f in type.Fields) { fields++; check = Mix(check, f.Name + ":" + f.FieldType.FullName); }
                foreach (var m in type.Methods)
                {
                    methods++;
                    check = Mix(check, m.FullName);
                    if (!m.HasBody) continue;
                    bodies++;
                    handlers += m.Body.ExceptionHandlers.Count;
                    foreach (Instruction ins in m.Body.Instructions)
                    {
                        instructions++;
                        int n;
                        opcodes.TryGetValue(ins.OpCode.Name, out n);
                        opcodes[ins.OpCode.Name] = n + 1;
                        var mr = ins.Operand as MemberReference;
                        if (mr != null) check = Mix(check, mr.Name);
                    }
                }
            }
        }
        Console.WriteLine("assembly " + asm.Name.Name + " " + asm.Name.Version);
        Console.WriteLine("types " + types);
        Console.WriteLine("methods " + methods + " (with bodies " + bodies + ")");
        Console.WriteLine("fields " + fields);
        Console.WriteLine("instructions " + instructions);
        Console.WriteLine("exception handlers " + handlers);
        foreach (var kv in opcodes.OrderByDescending(kv => kv.Value).ThenBy(kv => kv.Key, StringComparer.Ordinal).Take(10))
            Console.WriteLine("  " + kv.Key + " " + kv.Value);
        Console.WriteLine("checksum " + check);
        return 0;
    }

    static long Mix(long h, string s)
    {
        unchecked
        {
            foreach (char c in s) h = h * 31 + c;
            return h;
        }
    }
}
