// DnRead reads an assembly with dnlib 2.1 (Debian's libdnlib2.1-cil),
// walks every method body, and writes the module back to memory: counts
// of types, methods, instructions, the written size and a checksum of
// member names and operands.
using System;
using System.IO;
using System.Linq;
using dnlib.DotNet;
using dnlib.DotNet.Emit;

static class DnRead
{
    static int Main(string[] args)
    {
        var module = ModuleDefMD.Load(args[0]);
        int types = 0, methods = 0, instructions = 0, locals = 0;
        long check = 17;
        foreach (var type in module.GetTypes())
        {
            types++;
            check = Mix(check, type.FullName);
            foreach (var m in type.Methods)
            {
                methods++;
                check = Mix(check, m.FullName);
                if (!m.HasBody) continue;
                locals += m.Body.Variables.Count;
                foreach (var ins in m.Body.Instructions)
                {
                    instructions++;
                    var op = ins.Operand as IFullName;
                    if (op != null) check = Mix(check, op.Name);
                }
            }
        }
        var ms = new MemoryStream();
        module.Write(ms);
        Console.WriteLine("module " + module.Name + " runtime " + module.RuntimeVersion);
        Console.WriteLine("types " + types + ", methods " + methods + ", instructions " + instructions + ", locals " + locals);
        Console.WriteLine("written " + ms.Length + " bytes");
        Console.WriteLine("checksum " + check);
        return 0;
    }

    static long Mix(long h, string s)
    {
        unchecked { foreach (char c in s) h = h * 31 + c; return h; }
    }
}
