// Values.cs: calls with every kind of argument and return value, for the
// value-capture end-to-end tests.
using System;
using System.Text;

namespace Acme.Values
{
    public enum Color { Red = 1, Green = 2, Blue = 4 }

    public class Entity
    {
        public int Id = 7;
        protected string Tag = "base";
    }

    public class Item : Entity
    {
        public string Name;
        public double Price;
        public Color Color;
        public Item(string name, double price) { Name = name; Price = price; Color = Color.Green; }
    }

    public class Node
    {
        public string Name;
        public Node Next;
    }

    public class Account
    {
        public string User = "ada";
        public Credentials Creds = new Credentials();
    }

    public class Credentials
    {
        public string Login = "ada";
        public string Password = "hunter2-field";
    }

    public struct Pair
    {
        public long A;
        public long B;
    }

    public static class Settings
    {
        public static int MaxItems = 42;
        public static string Region = "eu-west";
        public static Geometry.Point Origin = new Geometry.Point(1, 2);
        [ThreadStatic] public static int PerThread;
        public static string ApiToken = "tok-secret-static";

        public static int Use(int x) { PerThread = 9; return x + MaxItems; }
    }

    public class Calls
    {
        public string Label = "calls";
        public string ApiToken { get; set; }

        public static long Ints(int a, long b, short c, sbyte d) { return a + b + c + d; }
        public static ulong Unsigned(ulong big, uint u, ushort s, byte b) { return big; }
        public static double Floats(double nan, double inf, float f, double neg) { return neg; }
        public static string Chars(char c, bool yes, bool no) { return c.ToString(); }
        public static int Strings(string s, string empty, string nul, string nonBmp) { return s.Length; }
        public static int Big(string huge) { return huge.Length; }
        public static int Arrays(int[] ints, string[] strs, Item[] items, int[,] grid) { return ints.Length; }
        public static int Huge(int[] many) { return many.Length; }
        public static int Objects(Item item, Item nothing) { return item.Id; }
        public static int Cycle(Node node) { return 1; }
        public static int Struct(Geometry.Point p) { return p.X; }
        public static int Boxed(object o, object s) { return 1; }
        public static T Echo<T>(T value) { return value; }
        public static void Refs(ref int r, out int o, ref string rs) { o = r + 1; r = 5; rs = "changed"; }
        public static bool Login(string user, string password) { return user.Length > 0; }
        public static int Nested(Account account) { return 1; }
        public static string GetApiKey() { return "sk-live-12345"; }
        public static Pair MakePair(long a, long b) { Pair p; p.A = a; p.B = b; return p; }
        public static Geometry.Point MakePoint(int x, int y) { return new Geometry.Point(x, y); }
        public static Color Paint(Color c) { return Color.Blue; }
        public int Instance(int x) { return x + Label.Length; }
        public static int Maybe(int? some, int? none) { return some ?? 0; }
        public static int Pairs(System.Collections.Generic.KeyValuePair<string, int> kv) { return kv.Value; }
        public static int Settings(System.Collections.Generic.Dictionary<string, string> settings, System.Collections.Generic.KeyValuePair<string, string> one) { return settings.Count; }
    }
}

public static class Program
{
    // "repeat N": the calls again N times once the first round's classes
    // are planned, so that each method is called often enough for the
    // value reader to read its arguments without asking the runtime.
    public static int Main(string[] args)
    {
        int repeat = args.Length == 2 && args[0] == "repeat" ? int.Parse(args[1]) : 0;
        string done = Round(true);
        if (repeat > 0)
            System.Threading.Thread.Sleep(300);
        for (int i = 0; i < repeat; i++)
            done = Round(false);
        Console.WriteLine(done);
        return 0;
    }

    // The calls, the large ones (and the waits for planning) in the first
    // round only.
    static string Round(bool first)
    {
        Acme.Values.Calls.Ints(-42, long.MinValue, short.MaxValue, -1);
        Acme.Values.Calls.Unsigned(ulong.MaxValue, uint.MaxValue, 65535, 255);
        Acme.Values.Calls.Floats(double.NaN, double.PositiveInfinity, 1.5f, -2.25);
        Acme.Values.Calls.Chars('é', true, false);
        Acme.Values.Calls.Strings("hello", "", null, "a\U0001F600b");
        if (first)
            Acme.Values.Calls.Big(new string('x', 1 << 20));
        var items = new[] { new Acme.Values.Item("pen", 1.5), null };
        Acme.Values.Calls.Arrays(new[] { 1, 2, 3 }, new[] { "a", null, "c" }, items, new int[2, 3]);
        if (first)
            Acme.Values.Calls.Huge(new int[10000000]);
        Acme.Values.Calls.Objects(new Acme.Values.Item("book", 12.25), null);
        var n = new Acme.Values.Node { Name = "loop" };
        n.Next = n;
        Acme.Values.Calls.Cycle(n);
        Acme.Values.Calls.Struct(new Geometry.Point(3, 4));
        Acme.Values.Calls.Boxed(42, "str");
        Acme.Values.Calls.Echo<int>(5);
        Acme.Values.Calls.Echo<string>("generic");
        Acme.Values.Calls.Echo<Acme.Values.Item>(new Acme.Values.Item("gen", 2));
        int r = 1, o;
        string rs = "before";
        Acme.Values.Calls.Refs(ref r, out o, ref rs);
        Acme.Values.Calls.Login("ada", "hunter2-arg");
        Acme.Values.Calls.Nested(new Acme.Values.Account());
        Acme.Values.Calls.GetApiKey();
        Acme.Values.Calls.MakePair(10, 20);
        Acme.Values.Calls.MakePoint(5, 6);
        Acme.Values.Calls.Paint(Acme.Values.Color.Red);
        new Acme.Values.Calls().Instance(3);
        new Acme.Values.Calls().ApiToken = "sk-live-setter";
        Acme.Values.Calls.Maybe(5, null);
        Acme.Values.Calls.Pairs(new System.Collections.Generic.KeyValuePair<string, int>("k", 3));
        var settings = new System.Collections.Generic.Dictionary<string, string> { { "user", "ada" }, { "password", "hunter2-dict" } };
        for (int i = 0; i < (first ? 3 : 1); i++) // the last call finds the layouts of the dictionary and its entries planned
        {
            Acme.Values.Calls.Settings(settings, new System.Collections.Generic.KeyValuePair<string, string>("api_key", "sk-live-pair"));
            if (first)
                System.Threading.Thread.Sleep(200);
        }
        Acme.Values.Settings.Use(1);
        Acme.Values.Settings.Use(2);
        return "done " + r + " " + o + " " + rs;
    }
}
