// Basic.cs: the end-to-end test app for span names, nesting, threads,
// float arguments and caught hardware exceptions. Each mode prints what it
// computed, so a run with and without the profiler can be compared.
using System;
using System.Collections.Generic;
using System.Threading;

namespace Acme.Shop
{
    public class Item
    {
        public string Name;
        public double Price;
        public Item(string name, double price) { Name = name; Price = price; }
    }

    public class Cart
    {
        private readonly List<Item> items = new List<Item>();

        public void Add(Item item, int quantity)
        {
            for (int i = 0; i < quantity; i++) items.Add(item);
        }

        public double Total()
        {
            double t = 0;
            foreach (var it in items) t += it.Price;
            return t;
        }

        public static int Twice(int x) { return x * 2; }

        // Overloads: one name, three signatures.
        public int Put(int x) { return x + 1; }
        public int Put(string s) { return s.Length; }
        public int Put(int x, int y) { return x + y; }

        public class Line
        {
            public int Qty(int q) { return q * 3; }

            public class Note
            {
                public string Text(string s) { return "note:" + s; }
            }
        }
    }

    public class Repo<T>
    {
        private readonly T value;
        public Repo(T value) { this.value = value; }
        public T Find<K>(K key) { return value; }
        public T Get(int index) { return value; }
    }

    public static class Util
    {
        public static T Echo<T>(T v) { return v; }
    }

    public static class Numbers
    {
        // Eight doubles fill xmm0-xmm7; a hook that clobbers them changes the result.
        public static double Mix(double a, double b, double c, double d, double e, double f, double g, double h)
        {
            return a * 1.5 + b / 3.0 - c * d + Math.Sqrt(e) + f * g - h;
        }

        public static float MixF(float a, int i, float b, long j, float c)
        {
            return a * i + b * j - c;
        }

        public static double Chain(double x, int n)
        {
            double acc = x;
            for (int i = 0; i < n; i++) acc = Mix(acc, i, 0.25, 2.0, 9.0 + i, 0.5, acc / 7.0, 1.0 / (i + 1));
            return acc;
        }
    }

    public static class Faults
    {
        public static int Length(string s) { return s.Length; }
        public static int Divide(int a, int b) { return a / b; }

        public static string CatchNull()
        {
            try { return "len " + Length(null); }
            catch (NullReferenceException) { return "caught NullReferenceException"; }
        }

        public static string CatchDivide(int zero)
        {
            try { return "quotient " + Divide(10, zero); }
            catch (DivideByZeroException) { return "caught DivideByZeroException"; }
        }
    }

    public static class Deep
    {
        public static int Recurse(int n) { return n == 0 ? 0 : 1 + Recurse(n - 1); }
    }

    public static class Tiny
    {
        // Small enough that an optimizing JIT would inline it.
        public static int Inc(int x) { return x + 1; }

        // Run with tiered compilation off, this is compiled fully optimized
        // (with inlining) on its first call.
        public static int HotLoop(int n)
        {
            int acc = 0;
            for (int i = 0; i < n; i++) acc = Inc(acc);
            return acc;
        }
    }

    public static class Tail
    {
        public static long Inner(long x) { return x * 3; }

        // The call is in tail position: an optimizing JIT may make it a tail call.
        public static long Outer(long x) { return Inner(x + 1); }

        // Calls in tail position named by a MethodSpec (a generic method's
        // instantiation), by a MemberRef through a TypeSpec (a method of a
        // generic class's instantiation), and by a MemberRef to another
        // assembly's type.
        public static long Same<T>(T v, long x) { return x + 2; }
        public static long OuterSpec(long x) { return Same<string>("s", x + 1); }
        public static long OuterGeneric(long x) { return Box<long>.Twice(x + 1); }
        public static long OuterOther(long x) { return Geometry.Calc.Triple(x + 1); }
    }

    public static class Box<T>
    {
        public static long Twice(long x) { return x * 2; }
    }

    public static class Workers
    {
        public static int Step(int id, int i) { return id * 100 + i; }

        public static int Work(int id)
        {
            int sum = 0;
            for (int i = 0; i < 3; i++) sum += Step(id, i);
            return sum;
        }
    }
}

public static class Program
{
    static void Names()
    {
        var cart = new Acme.Shop.Cart();
        var pen = new Acme.Shop.Item("pen", 1.5);
        cart.Add(pen, 2);
        Console.WriteLine("total " + cart.Total().ToString("R"));
        Console.WriteLine("twice " + Acme.Shop.Cart.Twice(21));
        Console.WriteLine("put " + cart.Put(1) + " " + cart.Put("abc") + " " + cart.Put(2, 3));
        Console.WriteLine("qty " + new Acme.Shop.Cart.Line().Qty(4));
        Console.WriteLine(new Acme.Shop.Cart.Line.Note().Text("hi"));
        var repo = new Acme.Shop.Repo<Acme.Shop.Item>(pen);
        Console.WriteLine("find " + repo.Find<int>(7).Name + " " + repo.Get(0).Name);
        var ints = new Acme.Shop.Repo<int>(5);
        Console.WriteLine("ints " + ints.Find<string>("k"));
        Console.WriteLine("echo " + Acme.Shop.Util.Echo<string>("s") + " " + Acme.Shop.Util.Echo<int>(3));
    }

    static void Floats()
    {
        Console.WriteLine("mix " + Acme.Shop.Numbers.Mix(1.25, 2.5, 3.75, 4.0, 16.0, 0.125, 8.5, 9.75).ToString("R"));
        Console.WriteLine("mixf " + Acme.Shop.Numbers.MixF(1.5f, 3, 2.25f, 4L, 0.5f).ToString("R"));
        Console.WriteLine("chain " + Acme.Shop.Numbers.Chain(3.5, 50).ToString("R"));
    }

    static void Faults()
    {
        Console.WriteLine(Acme.Shop.Faults.CatchNull());
        Console.WriteLine(Acme.Shop.Faults.CatchDivide(0));
        Console.WriteLine(Acme.Shop.Faults.CatchNull());
        Console.WriteLine(Acme.Shop.Faults.CatchDivide(0));
    }

    static void Threads()
    {
        var threads = new Thread[4];
        var results = new int[4];
        for (int t = 0; t < threads.Length; t++)
        {
            int id = t;
            threads[t] = new Thread(() => { results[id] = Acme.Shop.Workers.Work(id); });
            threads[t].Start();
        }
        foreach (var th in threads) th.Join();
        Console.WriteLine("threads " + string.Join(",", results));
    }

    public static int Main(string[] args)
    {
        string mode = args.Length > 0 ? args[0] : "all";
        if (mode == "names" || mode == "all") Names();
        if (mode == "floats" || mode == "all") Floats();
        if (mode == "faults" || mode == "all") Faults();
        if (mode == "threads" || mode == "all") Threads();
        if (mode == "recurse") Console.WriteLine("depth " + Acme.Shop.Deep.Recurse(int.Parse(args[1])));
        if (mode == "inline") Console.WriteLine("loop " + Acme.Shop.Tiny.HotLoop(1000));
        if (mode == "foldinline")
        {
            // Inc folds in the first round; HotLoop's optimized code (OSR,
            // tier 1) is compiled in the later ones.
            int total = 0;
            for (int r = 0; r < 60; r++)
            {
                total += Acme.Shop.Tiny.HotLoop(1000);
                System.Threading.Thread.Sleep(20);
            }
            Console.WriteLine("folded loop " + total);
        }
        if (mode == "tail")
        {
            Console.WriteLine("tail " + Acme.Shop.Tail.Outer(4));
            Console.WriteLine("tail spec " + Acme.Shop.Tail.OuterSpec(4));
            Console.WriteLine("tail generic " + Acme.Shop.Tail.OuterGeneric(4));
            Console.WriteLine("tail other " + Acme.Shop.Tail.OuterOther(4));
        }
        if (mode == "roots")
        {
            // N calls with no traced caller (trace only Tiny.Inc): N roots.
            int n = int.Parse(args[1]), acc = 0;
            for (int i = 0; i < n; i++) acc = Acme.Shop.Tiny.Inc(acc);
            Console.WriteLine("roots " + acc);
            return 0;
        }
        if (mode == "recurse") return 0;
        return args.Length > 1 ? int.Parse(args[1]) : 0;
    }
}
