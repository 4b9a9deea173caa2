// CsParse parses C# files with NRefactory 5 (Debian's
// libicsharpcode-nrefactory-csharp5.0-cil) and prints, per file, the
// number of syntax nodes by kind (top 12), the type and member
// declarations it found, and the source printed back from the tree.
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using ICSharpCode.NRefactory.CSharp;

static class CsParse
{
    static int Main(string[] args)
    {
        int errors = 0;
        foreach (var path in args)
        {
            var parser = new CSharpParser();
            var tree = parser.Parse(File.ReadAllText(path), Path.GetFileName(path));
            errors += parser.Errors.Count();
            foreach (var e in parser.Errors.Take(2)) Console.WriteLine("  error " + e.Region.BeginLine + ": " + e.Message);
            var kinds = new Dictionary<string, int>();
            foreach (var n in tree.Descendants)
            {
                int c;
                kinds.TryGetValue(n.GetType().Name, out c);
                kinds[n.GetType().Name] = c + 1;
            }
            Console.WriteLine(Path.GetFileName(path) + ": " + tree.Descendants.Count() + " nodes, " + parser.Errors.Count() + " errors");
            foreach (var kv in kinds.OrderByDescending(kv => kv.Value).ThenBy(kv => kv.Key, StringComparer.Ordinal).Take(12))
                Console.WriteLine("  " + kv.Key + " " + kv.Value);
            var types = tree.Descendants.OfType<TypeDeclaration>().ToList();
            Console.WriteLine("  types " + types.Count + ", methods " + tree.Descendants.OfType<MethodDeclaration>().Count()
                + ", lambdas " + tree.Descendants.OfType<LambdaExpression>().Count()
                + ", queries " + tree.Descendants.OfType<QueryExpression>().Count());
            string printed = tree.ToString();
            long h = 17;
            unchecked { foreach (char ch in printed) h = h * 31 + ch; }
            Console.WriteLine("  printed " + printed.Length + " chars, hash " + h);
        }
        Console.WriteLine("syntax errors " + errors);
        return 0;
    }
}
