// Types.cs: the common .NET types and collections as arguments, for the
// rendering end-to-end test (TestTypeRenderings). Each call is made five times:
// a class's plan may be built after its first sighting.
using System;
using System.Collections.Generic;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace Acme.Types
{
    public class Cat { public string Name = "Tom"; }

    [Flags] public enum Access { None = 0, Read = 1, Write = 2, Execute = 4 }

    public class Cage<T>
    {
        public class Door
        {
            public int Open(int code)
            {
                if (code < 0) throw new ArgumentOutOfRangeException("code");
                return code + 1;
            }
        }
    }

    public class Customer
    {
        public string Name = "Ada";
        public string Reference = "5500-0000-0000-0004";
        public string CardNumber = "4111111111111111";
    }

    public class Service
    {
        private readonly Dictionary<string, int> stock = new Dictionary<string, int>();
        private readonly List<string> log = new List<string>();
        private readonly object gate = new object();
        public string Name = "svc";
        // Walked collections (trees, hash chains) in `this`: their count.
        private readonly object prices = Activator.CreateInstance(Type.GetType(
            "System.Collections.Generic.SortedDictionary`2[[System.String],[System.Int32]], System.Collections", true));
        private readonly object seen = Activator.CreateInstance(Type.GetType(
            "System.Collections.Concurrent.ConcurrentDictionary`2[[System.Int32],[System.Int32]], System.Collections.Concurrent", true));

        public Service()
        {
            for (int i = 0; i < 40; i++) stock["sku" + i] = i;
            log.Add("started");
            ((System.Collections.IDictionary)prices).Add("pen", 2);
            ((System.Collections.IDictionary)prices).Add("ink", 5);
            ((System.Collections.IDictionary)seen).Add(1, 1);
        }

        public int Count(int extra) { lock (gate) { return stock.Count + extra; } }
    }

    public static class Pricing
    {
        public static decimal Discount(decimal price) { return price * 0.9m; }
        public static int Never(int x) { return x; } // never called
    }

    public static class Calls
    {
        public static int Scalars(decimal price, decimal negative, DateTime at, DateTime unspecified, DateTimeOffset when,
            TimeSpan ttl, TimeSpan negSpan, Guid g, Uri link, Version ver, object boxedDec) { return 1; }
        public static int Builders(StringBuilder sb, StringBuilder longer) { return 2; }
        public static int Lists(List<int> empty, List<int> one, List<int> many, List<string> strs) { return 3; }
        public static int Dicts(Dictionary<string, int> empty, Dictionary<string, int> one, Dictionary<string, int> many, Dictionary<string, int> removed) { return 4; }
        public static int Sets(HashSet<int> empty, HashSet<int> one, HashSet<int> many, HashSet<string> removed) { return 5; }
        public static int Arrays(int[] empty, int[] one, int[] many) { return 6; }
        public static int Ordered(object queue, object stack) { return 7; }
        public static int OrderedSizes(object emptyQueue, object manyQueue, object emptyStack, object manyStack) { return 14; }
        public static int ValueTuples(ValueTuple<int, string> pair) { return 15; }
        public static int Concurrent(object empty, object three) { return 13; }
        // Trees and hash chains, walked by the value writer; made by name
        // (System.Collections, System.Collections.Immutable on .NET Core).
        public static int SortedSets(object empty, object one, object many, object removed) { return 17; }
        public static int SortedDicts(object empty, object one, object many, object removed, object cats) { return 18; }
        public static int Immutables(object empty, object one, object many, object removed, object array) { return 19; }
        public static int ConcurrentInts(object one, object many, object removed, object cats) { return 20; }
        public static int Misc(Tuple<int, string> tuple, KeyValuePair<string, int> kv, CancellationToken none,
            CancellationToken live, CancellationToken canceled, Lazy<int> made, Lazy<int> notMade,
            Exception error, Encoding enc, Type type, Task<int> done) { return 8; }
        public static int Payments(string note, string plain, Customer customer, List<string> notes) { return 9; }
        public static int Nested(Cage<Cat>.Door door)
        {
            try { door.Open(-1); } catch (ArgumentOutOfRangeException) { }
            return door.Open(41);
        }
        public static int Flags(Access both, Access one, Access odd) { return 10; }
        // DateOnly and TimeOnly exist from .NET 6: made by name, null before.
        public static int Dates(object day, object time) { return 11; }
        // Each delegate is called, so that its method is compiled when the
        // span is rendered (the method of code never compiled is not known).
        public static int Delegates(Func<int> lambda, Func<int, int> bound, Action multi, Func<decimal, decimal> discount, Func<int, int> never)
        {
            lambda(); bound(0); multi(); discount(10m);
            return 12;
        }
        public static int Locals(DateTime winter, DateTime summer) { return 16; }
        public static void Decline(string who)
        {
            throw new InvalidOperationException("card 4111 1111 1111 1111 declined for " + who);
        }
    }

    public static class Program
    {
        static List<int> Range(int n) { var l = new List<int>(); for (int i = 0; i < n; i++) l.Add(i); return l; }

        static object Make(string type) { return Activator.CreateInstance(Type.GetType(type, true)); }
        static object Ret(object o, string method, params object[] args) { return o.GetType().GetMethod(method).Invoke(o, args); }

        const string sortedSet = "System.Collections.Generic.SortedSet`1[[System.Int32]], System.Collections";
        const string sortedDict = "System.Collections.Generic.SortedDictionary`2[[System.String],[System.Int32]], System.Collections";
        const string catsDict = "System.Collections.Generic.SortedDictionary`2[[System.String],[Acme.Types.Cat, Types]], System.Collections";
        const string cdInts = "System.Collections.Concurrent.ConcurrentDictionary`2[[System.Int32],[System.Int32]], System.Collections.Concurrent";

        static object Sorted(params int[] xs) { var s = Make(sortedSet); foreach (var x in xs) Call(s, "Add", x); return s; }
        static object SortedD(params string[] ks) { var d = Make(sortedDict); foreach (var k in ks) Call(d, "Add", k, k.Length); return d; }
        static object CdInts(int n) { var d = Make(cdInts); for (int i = 0; i < n; i++) Call(d, "TryAdd", i, i * 10); return d; }
        static object Immutable(string type, int n)
        {
            object l = Type.GetType(type + "`1[[System.Int32]], System.Collections.Immutable", true).GetField("Empty").GetValue(null);
            for (int i = 0; i < n; i++) l = Ret(l, "Add", i);
            return l;
        }
        static void Call(object o, string method, params object[] args) { o.GetType().GetMethod(method).Invoke(o, args); }

        public static int Main(string[] args)
        {
            var many = new Dictionary<string, int>();
            for (int i = 0; i < 20; i++) many["k" + i] = i;
            var removed = new Dictionary<string, int>();
            for (int i = 0; i < 6; i++) removed["r" + i] = i;
            removed.Remove("r1"); removed.Remove("r3"); removed.Remove("r4");
            var setRemoved = new HashSet<string> { "a", "b", "c", "d" };
            setRemoved.Remove("b"); setRemoved.Remove("c");
            var setMany = new HashSet<int>(); for (int i = 0; i < 20; i++) setMany.Add(i);
            // Queue<T> and Stack<T> live in System.Collections on .NET Core, where
            // mcs's references do not point: made by name.
            var q = Make("System.Collections.Generic.Queue`1[[System.Int32]], System.Collections");
            for (int i = 1; i <= 5; i++) Call(q, "Enqueue", i);
            Call(q, "Dequeue"); Call(q, "Dequeue"); Call(q, "Enqueue", 6);
            var st = Make("System.Collections.Generic.Stack`1[[System.Int32]], System.Collections");
            for (int i = 1; i <= 3; i++) Call(st, "Push", i);
            var longer = new StringBuilder("hello");
            for (int i = 0; i < 5; i++) longer.Append(" world" + i);
            var canceled = new CancellationTokenSource(); canceled.Cancel();
            var made = new Lazy<int>(() => 42); int forced = made.Value;
            var tz = new DateTimeOffset(2026, 11, 23, 10, 0, 0, TimeSpan.FromHours(1));
            int sum = 0;
            // Five rounds: a class's plan is built after a call first meets
            // it, and a ConcurrentDictionary is four classes deep down to
            // its nodes (the dictionary, its Tables, the bucket array, Node),
            // a SortedDictionary three: the last rounds show the entries.
            for (int round = 0; round < 5; round++)
            {
                sum += Calls.Scalars(99.95m, -0.001m, new DateTime(2026, 11, 23, 9, 0, 0, DateTimeKind.Utc), new DateTime(2026, 1, 2, 3, 4, 5, 678),
                    tz, TimeSpan.FromMinutes(90), TimeSpan.FromDays(-1.5), new Guid("3f2504e0-4f89-11d3-9a0c-0305e82c3301"),
                    new Uri("https://shop.example/cart?id=7"), new Version(1, 2, 3), (object)12.5m);
                sum += Calls.Builders(new StringBuilder("hello"), longer);
                sum += Calls.Lists(new List<int>(), Range(1), Range(20), new List<string> { "a", null, "c" });
                var one = new Dictionary<string, int>(); one["only"] = 1;
                sum += Calls.Dicts(new Dictionary<string, int>(), one, many, removed);
                var setOne = new HashSet<int> { 7 };
                sum += Calls.Sets(new HashSet<int>(), setOne, setMany, setRemoved);
                sum += Calls.Arrays(new int[0], new[] { 5 }, Range(20).ToArray());
                sum += Calls.Ordered(q, st);
                const string qt = "System.Collections.Generic.Queue`1[[System.Int32]], System.Collections";
                const string stt = "System.Collections.Generic.Stack`1[[System.Int32]], System.Collections";
                var manyQ = Make(qt); var manyS = Make(stt);
                for (int i = 0; i < 20; i++) { Call(manyQ, "Enqueue", i); Call(manyS, "Push", i); }
                sum += Calls.OrderedSizes(Make(qt), manyQ, Make(stt), manyS);
                sum += Calls.ValueTuples(new ValueTuple<int, string>(2, "b"));
                const string cd = "System.Collections.Concurrent.ConcurrentDictionary`2[[System.String],[System.Int32]], System.Collections.Concurrent";
                var three = Make(cd);
                for (int i = 0; i < 3; i++) Call(three, "TryAdd", "c" + i, i);
                sum += Calls.Concurrent(Make(cd), three);
                // Inserted out of order: shown in order.
                var sortedMany = Sorted(19, 3, 7, 0, 12, 5, 16, 1, 9, 14, 2, 18, 6, 11, 4, 17, 8, 13, 10, 15);
                var sortedRemoved = Sorted(1, 2, 3, 4, 5, 6); Call(sortedRemoved, "Remove", 2); Call(sortedRemoved, "Remove", 4);
                sum += Calls.SortedSets(Sorted(), Sorted(7), sortedMany, sortedRemoved);
                var dictMany = Make(sortedDict);
                for (int i = 19; i >= 0; i--) Call(dictMany, "Add", "k" + i.ToString("D2"), i);
                var dictRemoved = SortedD("pear", "apple", "fig", "kiwi"); Call(dictRemoved, "Remove", "fig");
                var cats = Make(catsDict);
                Call(cats, "Add", "tom", new Cat());
                sum += Calls.SortedDicts(SortedD(), SortedD("only"), dictMany, dictRemoved, cats);
                var listRemoved = Ret(Ret(Immutable("System.Collections.Immutable.ImmutableList", 6), "RemoveAt", 1), "RemoveAt", 2);
                sum += Calls.Immutables(Immutable("System.Collections.Immutable.ImmutableList", 0), Immutable("System.Collections.Immutable.ImmutableList", 1),
                    Immutable("System.Collections.Immutable.ImmutableList", 20), listRemoved, Immutable("System.Collections.Immutable.ImmutableArray", 3));
                var cdRemoved = CdInts(6);
                var cdAsDict = (System.Collections.IDictionary)cdRemoved;
                cdAsDict.Remove(1); cdAsDict.Remove(3); cdAsDict.Remove(4);
                var cdCats = (System.Collections.IDictionary)Make("System.Collections.Concurrent.ConcurrentDictionary`2[[System.String],[Acme.Types.Cat, Types]], System.Collections.Concurrent");
                cdCats.Add("tom", new Cat());
                sum += Calls.ConcurrentInts(CdInts(1), CdInts(20), cdRemoved, cdCats);
                Exception error;
                try { throw new InvalidOperationException("bad state"); } catch (Exception e) { error = e; }
                sum += Calls.Misc(Tuple.Create(1, "a"), new KeyValuePair<string, int>("k", 3), CancellationToken.None,
                    new CancellationTokenSource().Token, canceled.Token, made, new Lazy<int>(() => 1), error,
                    Encoding.UTF8, typeof(Customer), Task.FromResult(5));
                sum += Calls.Payments("paid with 4111 1111 1111 1111 today", "order 1234567890123", new Customer(),
                    new List<string> { "5500000000000004", "ok" });
                sum += Calls.Nested(new Cage<Cat>.Door());
                sum += new Service().Count(round);
                sum += Calls.Flags(Access.Read | Access.Write, Access.Execute, (Access)8);
                var dateOnly = Type.GetType("System.DateOnly");
                var timeOnly = Type.GetType("System.TimeOnly");
                sum += Calls.Dates(dateOnly == null ? null : Activator.CreateInstance(dateOnly, 2026, 11, 23),
                    timeOnly == null ? null : Activator.CreateInstance(timeOnly, 9, 30, 15));
                try { Calls.Decline("Ada"); } catch (InvalidOperationException) { sum++; }
                var svc = new Service();
                Action a = () => { }, b = () => { };
                sum += Calls.Delegates(() => 1, svc.Count, a + b, Pricing.Discount, Pricing.Never);
                sum += Calls.Locals(new DateTime(2026, 11, 23, 9, 0, 0, DateTimeKind.Local), new DateTime(2026, 7, 1, 9, 0, 0, DateTimeKind.Local));
                Thread.Sleep(400); // plans of classes first met in this round are built
            }
            Console.WriteLine("types " + sum + " " + forced);
            return 0;
        }
    }
}
