// Ordinary code that crashed or misread under capture before the buffer
// audit (issue 13): an enum with long member names, fields and arguments of
// common BCL types, and methods of a generic struct instantiated over a
// reference type (its `this` is a pointer into the struct, not an object).
using System;
using System.Collections.Generic;
using System.Text;

namespace Acme.Ordinary
{
    public enum Verbosity
    {
        Quiet = 0,
        ThisMemberNameIsLongEnoughToOverrunAnyBufferThatWasSizedForASingleCharacterAndThenSome = 1,
        AnotherRatherLongMemberNameThatKeepsGoingForAWhileSoThatItWouldSpillOverTheStackFrame = 2,
    }

    [Flags]
    public enum Access : byte { None = 0, Read = 1, Write = 2, ExecuteWithAVeryLongMemberNameIndeed = 4 }

    public class Item
    {
        public int Id;
        public string Name;
        public Item(int id, string name) { Id = id; Name = name; }
    }

    public struct Holder<T> where T : class
    {
        public T Value;
        public int Count;
        public Holder(T value) { Value = value; Count = 1; }
        public T Get() { Count++; return Value; }
        public int Times(int k) { return Count * k; }
    }

    public struct Pair<A, B>
    {
        public A First;
        public B Second;
        public Pair(A a, B b) { First = a; Second = b; }
        public string Show() { return First + "/" + Second; }
    }

    public class Record
    {
        public Guid Id = new Guid("3f2504e0-4f89-11d3-9a0c-0305e82c3301");
        public decimal Price = 99.95m;
        public DateTime At = new DateTime(2026, 11, 23, 9, 0, 0, DateTimeKind.Utc);
        public TimeSpan Ttl = TimeSpan.FromSeconds(90);
        public DateTimeOffset When = new DateTimeOffset(2026, 11, 23, 10, 0, 0, TimeSpan.FromHours(1));
        public Uri Link = new Uri("https://example.invalid/a?b=c");
        public List<string> Tags = new List<string> { "a", "b" };
        public Dictionary<string, int> Counts = new Dictionary<string, int> { { "x", 1 }, { "y", 2 } };
        public HashSet<int> Seen = new HashSet<int> { 1, 2, 3 };
        public int? Maybe = 7;
        public Verbosity Level = Verbosity.ThisMemberNameIsLongEnoughToOverrunAnyBufferThatWasSizedForASingleCharacterAndThenSome;
        public Access Rights = Access.Read | Access.ExecuteWithAVeryLongMemberNameIndeed;
    }

    public static class Program
    {
        static string Place(Record r, decimal amount, StringBuilder sb, object boxed, Verbosity v)
        {
            sb.Append(r.Tags.Count).Append(':').Append(amount);
            return sb.ToString() + "|" + boxed + "|" + v;
        }

        static int Sum(Holder<Item> h, Pair<int, string> p) { return h.Count + p.First; }

        public static int Main(string[] args)
        {
            int n = args.Length > 0 ? int.Parse(args[0]) : 3;
            var r = new Record();
            string last = "";
            for (int i = 0; i < n; i++)
                last = Place(r, 12.5m + i, new StringBuilder("hello"), (object)3.25m, Verbosity.AnotherRatherLongMemberNameThatKeepsGoingForAWhileSoThatItWouldSpillOverTheStackFrame);
            Console.WriteLine(last);
            var h = new Holder<Item>(new Item(42, "pen"));
            var p = new Pair<int, string>(5, "five");
            int total = 0;
            for (int i = 0; i < n; i++)
            {
                total += h.Get().Id + h.Times(2);
                Console.WriteLine(p.Show());
                total += Sum(h, p);
            }
            Console.WriteLine("total " + total + " rights " + r.Rights + " level " + r.Level);
            return total % 7;
        }
    }
}
