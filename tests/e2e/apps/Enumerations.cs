// Enumerations of iterators compiled by mcs, in the shapes a program uses
// them beyond one foreach over a fresh call: an enumerable enumerated
// twice (its GetEnumerator returns itself the first time, a fresh
// enumerator after), LINQ over an iterator (once and twice), an
// enumeration on another thread, one broken off early the second time,
// nested iterators enumerated twice, and an enumerable made in one method
// and enumerated in another. Each shape runs in a method of its own, the
// enumerations' caller.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;

namespace Acme.Enumerations
{
    public static class Gen
    {
        public static int Step(int i) { return i + 1; }

        // Each element through a traced call: a Step child per element.
        public static IEnumerable<int> Nums(int n)
        {
            for (int i = 0; i < n; i++)
                yield return Step(i);
        }

        // An iterator over another's enumerations.
        public static IEnumerable<int> Pairs(int n)
        {
            foreach (var x in Nums(n))
                yield return x;
            foreach (var x in Nums(n))
                yield return x;
        }

        public static IEnumerable<T> Twice<T>(T v)
        {
            Step(0);
            yield return v;
            Step(1);
            yield return v;
        }
    }

    // An iterator of a generic class: its enumerator a generic class too.
    public class Box<T>
    {
        readonly T v;
        public Box(T v) { this.v = v; }

        public IEnumerable<T> Items()
        {
            Gen.Step(0);
            yield return v;
        }
    }

    public static class Shapes
    {
        // The same enumerable, enumerated twice.
        public static int Again()
        {
            var xs = Gen.Nums(3);
            int s = 0;
            foreach (var x in xs) s += x;
            foreach (var x in xs) s += x;
            return s;
        }

        // A third time too, broken off after two elements.
        public static int AgainBroken()
        {
            var xs = Gen.Nums(4);
            int s = 0;
            foreach (var x in xs) s += x;
            foreach (var x in xs) s += x;
            foreach (var x in xs)
            {
                s += x;
                if (s > 20) break;
            }
            return s;
        }

        // LINQ over an iterator: Where and Select enumerate it once.
        public static int Linq()
        {
            return Gen.Nums(6).Where(x => x % 2 == 0).Select(x => x * 10).Sum();
        }

        // A LINQ query over an iterator, run twice: two enumerations.
        public static int LinqTwice()
        {
            var q = Gen.Nums(5).Where(x => x > 2);
            return q.Count() + q.Sum();
        }

        // A generic iterator, enumerated twice.
        public static int GenericAgain()
        {
            var xs = Gen.Twice("g");
            return xs.Count() + xs.Count();
        }

        // A generic class's iterator, over a value type and a reference
        // type, enumerated twice each.
        public static int BoxAgain()
        {
            var ints = new Box<int>(3).Items();
            var strs = new Box<string>("s").Items();
            int n = 0;
            foreach (var x in ints) n += x;
            foreach (var x in ints) n += x;
            foreach (var x in strs) n += x.Length;
            foreach (var x in strs) n += x.Length;
            return n;
        }

        // An enumerator made here, run on another thread.
        public static int OtherThread()
        {
            var e = Gen.Nums(4).GetEnumerator();
            int s = 0;
            var t = new Thread(() => { while (e.MoveNext()) s += e.Current; e.Dispose(); });
            t.Start();
            t.Join();
            return s;
        }

        // An enumerable made here, enumerated (twice) on another thread.
        public static int OtherThreadEnumerable()
        {
            var xs = Gen.Nums(2);
            int s = 0;
            var t = new Thread(() => { foreach (var x in xs) s += x; foreach (var x in xs) s += x; });
            t.Start();
            t.Join();
            return s;
        }

        // Nested iterators, the outer enumerated twice.
        public static int NestedAgain()
        {
            var xs = Gen.Pairs(2);
            return xs.Sum() + xs.Sum();
        }

        public static IEnumerable<int> Make() { return Gen.Nums(3); }

        public static int Consume(IEnumerable<int> xs)
        {
            int s = 0;
            foreach (var x in xs) s += x;
            return s;
        }

        // Made in one method, enumerated in another (twice).
        public static int MadeElsewhere()
        {
            var xs = Make();
            return Consume(xs) + Consume(xs);
        }
    }
}

public static class Program
{
    public static int Main(string[] args)
    {
        Console.WriteLine("again " + Acme.Enumerations.Shapes.Again());
        Console.WriteLine("again broken " + Acme.Enumerations.Shapes.AgainBroken());
        Console.WriteLine("linq " + Acme.Enumerations.Shapes.Linq());
        Console.WriteLine("linq twice " + Acme.Enumerations.Shapes.LinqTwice());
        Console.WriteLine("generic again " + Acme.Enumerations.Shapes.GenericAgain());
        Console.WriteLine("box again " + Acme.Enumerations.Shapes.BoxAgain());
        Console.WriteLine("other thread " + Acme.Enumerations.Shapes.OtherThread());
        Console.WriteLine("other thread enumerable " + Acme.Enumerations.Shapes.OtherThreadEnumerable());
        Console.WriteLine("nested again " + Acme.Enumerations.Shapes.NestedAgain());
        Console.WriteLine("made elsewhere " + Acme.Enumerations.Shapes.MadeElsewhere());
        return 0;
    }
}
