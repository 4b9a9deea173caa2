// Resolve: a traced method whose parameter type derives from a type in an
// assembly only an AssemblyResolve handler can find. Planning that method's
// values loads the type, the load runs the (managed, JIT-compiled) handler
// on the same thread, and the profiler is asked about the handler's
// methods while it is still deciding about the first one.
using System;
using System.IO;
using System.Reflection;

namespace Acme.Resolve
{
    public class Derived : Acme.Plugin.Base { public string Name = "d"; }

    public static class Calls
    {
        public static int Take(Derived d) { return d == null ? 0 : d.Id; }
        // Run's own compilation does not load Derived: the first load of
        // Derived is the profiler's, while it plans Take.
        public static int Run() { return Take(null) + Second(); }
        static int Second() { return Take(new Derived()); }
    }
}

public static class Program
{
    static Assembly OnResolve(object sender, ResolveEventArgs e)
    {
        string name = new AssemblyName(e.Name).Name;
        string path = Path.Combine(Path.GetDirectoryName(typeof(Program).Assembly.Location), "plugins", name + ".dll");
        if (!File.Exists(path))
            return null;
        Console.WriteLine("resolved " + name);
        return Assembly.LoadFrom(path);
    }

    public static int Main()
    {
        AppDomain.CurrentDomain.AssemblyResolve += OnResolve;
        Console.WriteLine("run " + Acme.Resolve.Calls.Run());
        return 0;
    }
}
