// PlannerThread: objects whose fields are generic structs instantiated
// over reference types (Pair<String, Int32> inside Box<String>), met first
// as `object` arguments, so that their plans are built on the profiler's
// planner thread. The runtime lays such a field out through the canonical
// form (Pair<__Canon, Int32>); the exact instantiation is never loaded,
// and asking the runtime for it there loaded it on a thread it does not
// know (3.1: SIGSEGV; 8: stack smashing detected).
using System;
using System.Collections.Generic;

namespace Acme.Planner
{
    public struct Pair<A, B>
    {
        public A First;
        public B Second;
        public Pair(A a, B b) { First = a; Second = b; }
    }

    public struct Triple<A, B, C>
    {
        public A X; public B Y; public C Z;
    }

    public class Box<T>
    {
        public Pair<T, int> Item;
        public Pair<int, long> Plain;
        public KeyValuePair<T, string> Entry;
        public Triple<T, Uri, int?> More;
        public int? Maybe;
        public Box(T v, int n) { Item = new Pair<T, int>(v, n); Plain = new Pair<int, long>(n, n * 2L); Entry = new KeyValuePair<T, string>(v, "e" + n); More.X = v; More.Z = n; Maybe = n; }
    }

    public class Holder<T> where T : class
    {
        public Pair<T, T> Both;
        public Holder(T a, T b) { Both = new Pair<T, T>(a, b); }
    }

    public static class Program
    {
        static int Take(object o, int i) { return o.GetHashCode() == 0 ? i : i + 1; }

        public static int Main()
        {
            int sum = 0;
            for (int i = 0; i < 200; i++)
            {
                // The first calls find no plan and ask for one; give the
                // planner time to build them before the next rounds.
                if (i % 50 == 1) System.Threading.Thread.Sleep(200);
                sum += Take(new Box<string>("s" + i, i), i);
                sum += Take(new Box<Version>(new Version(1, i), i), i);
                sum += Take(new Box<int[]>(new[] { i }, i), i);
                sum += Take(new Holder<string>("a", "b" + i), i);
                sum += Take(new Holder<List<string>>(new List<string>(), null), i);
                sum += Take(new Box<int>(i, i), i);
            }
            Console.WriteLine("sum " + sum);
            return 0;
        }
    }
}
