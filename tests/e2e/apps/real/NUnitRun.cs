// NUnitRun runs the NUnit 2.6 tests of an assembly with NUnit's own
// framework (nunit.framework.dll from Debian): it finds [TestFixture]
// classes, runs [TestFixtureSetUp], [SetUp], [Test] and [TestCase] methods
// and [TearDown], and reports each result as NUnit's assertion, ignore and
// success exceptions say. NUnit's console runner needs AppDomains and
// remoting, which CoreCLR does not have; the framework itself runs.
// Exit code: the number of failed tests.
using System;
using System.Linq;
using System.Reflection;
using NUnit.Framework;

static class NUnitRun
{
    static int passed, failed, ignored;

    static int Main(string[] args)
    {
        var asm = Assembly.LoadFrom(args[0]);
        foreach (var type in asm.GetTypes().OrderBy(t => t.FullName, StringComparer.Ordinal))
        {
            if (!type.IsDefined(typeof(TestFixtureAttribute), false)) continue;
            Console.WriteLine("fixture " + type.FullName);
            var fixture = Activator.CreateInstance(type);
            Call(fixture, type, typeof(TestFixtureSetUpAttribute));
            foreach (var m in type.GetMethods().OrderBy(m => m.Name, StringComparer.Ordinal))
            {
                var cases = m.GetCustomAttributes(typeof(TestCaseAttribute), false).Cast<TestCaseAttribute>().ToList();
                if (cases.Count > 0)
                {
                    foreach (var c in cases.OrderBy(c => string.Join(",", c.Arguments.Select(a => Convert.ToString(a))), StringComparer.Ordinal))
                        RunOne(fixture, type, m, c.Arguments, c.Result);
                }
                else if (m.IsDefined(typeof(TestAttribute), false))
                {
                    var ig = (IgnoreAttribute)m.GetCustomAttributes(typeof(IgnoreAttribute), false).FirstOrDefault();
                    if (ig != null) { ignored++; Console.WriteLine("  " + m.Name + " ignored: " + ig.Reason); continue; }
                    RunOne(fixture, type, m, new object[0], null);
                }
            }
            Call(fixture, type, typeof(TestFixtureTearDownAttribute));
        }
        Console.WriteLine(passed + " passed, " + failed + " failed, " + ignored + " ignored");
        return failed;
    }

    static void RunOne(object fixture, Type type, MethodInfo m, object[] args, object expected)
    {
        string name = m.Name + (args.Length > 0 ? "(" + string.Join(",", args.Select(a => Convert.ToString(a))) + ")" : "");
        try
        {
            Call(fixture, type, typeof(SetUpAttribute));
            object got;
            try { got = m.Invoke(fixture, args); }
            finally { Call(fixture, type, typeof(TearDownAttribute)); }
            if (expected != null) Assert.AreEqual(expected, got);
            passed++;
            Console.WriteLine("  " + name + " passed");
        }
        catch (TargetInvocationException e) { Report(name, e.InnerException); }
        catch (Exception e) { Report(name, e); }
    }

    static void Report(string name, Exception e)
    {
        if (e is SuccessException) { passed++; Console.WriteLine("  " + name + " passed"); return; }
        if (e is IgnoreException) { ignored++; Console.WriteLine("  " + name + " ignored: " + e.Message); return; }
        failed++;
        string kind = e is AssertionException ? "failed" : "error " + e.GetType().Name;
        Console.WriteLine("  " + name + " " + kind + ": " + e.Message.Trim().Replace("\r", "").Replace("\n", " | "));
    }

    static void Call(object fixture, Type type, Type attr)
    {
        foreach (var m in type.GetMethods())
            if (m.IsDefined(attr, false))
                try { m.Invoke(fixture, null); }
                catch (TargetInvocationException e) { throw e.InnerException; }
    }
}
