// Iterators as mcs compiles them: no IteratorStateMachineAttribute; each
// `yield return` method constructs a compiler-generated enumerator nested
// in its type (<Count>c__Iterator0), generic ones through a TypeSpec.
using System;
using System.Collections;
using System.Collections.Generic;

namespace Acme.Iterators
{
    public static class Seq
    {
        public static int Square(int i) { return i * i; }

        // Every item through a traced call: 1,000 children of one span.
        public static IEnumerable<int> Count(int n)
        {
            for (int i = 0; i < n; i++)
                yield return Square(i);
        }

        // An iterator that yields from another: nested enumerations.
        public static IEnumerable<int> Outer(int n)
        {
            for (int i = 1; i <= n; i++)
                foreach (var x in Count(i))
                    yield return x;
        }

        // A generic iterator method (its enumerator a generic class).
        public static IEnumerable<T> Repeat<T>(T v, int n)
        {
            for (int i = 0; i < n; i++)
            {
                Square(i);
                yield return v;
            }
        }
    }

    // An iterator of a generic class, over a reference type and a value
    // type.
    public class Bag<T>
    {
        readonly T[] items;
        public Bag(T[] items) { this.items = items; }

        public IEnumerable<T> Items()
        {
            foreach (var x in items)
            {
                Seq.Square(1);
                yield return x;
            }
        }
    }
}

public static class Program
{
    public static int Main(string[] args)
    {
        long sum = 0;
        foreach (var x in Acme.Iterators.Seq.Count(1000)) sum += x;
        Console.WriteLine("count " + sum);
        int k = 0;
        foreach (var x in Acme.Iterators.Seq.Count(100))
        {
            if (++k == 5) break; // broken off early: Dispose ends it
        }
        Console.WriteLine("early " + k);
        sum = 0;
        foreach (var x in Acme.Iterators.Seq.Outer(3)) sum += x;
        Console.WriteLine("outer " + sum);
        var words = new List<string>(Acme.Iterators.Seq.Repeat("w", 3));
        Console.WriteLine("repeat " + string.Join(",", words));
        int n = 0;
        foreach (var s in new Acme.Iterators.Bag<string>(new[] { "a", "b" }).Items()) n += s.Length;
        foreach (var i in new Acme.Iterators.Bag<int>(new[] { 1, 2, 3 }).Items()) n += i;
        Console.WriteLine("bags " + n);
        // Run to its end by hand, never disposed.
        var e = Acme.Iterators.Seq.Count(7).GetEnumerator();
        int m = 0;
        while (e.MoveNext()) m += e.Current;
        Console.WriteLine("by hand " + m);
        return 0;
    }
}
