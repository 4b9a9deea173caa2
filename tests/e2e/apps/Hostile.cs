// Hostile: values that try to make value capture slow, big or wrong: a
// 100 MB string, an array of 2^31-57 structs, deep and cyclic graphs, and
// objects another thread rewrites while traced methods read them.
using System;
using System.Threading;

namespace Acme.Hostile
{
    public struct Tiny { public byte B; }

    public class Node { public int Id; public Node Next; }

    public class Holder
    {
        public string S;
        public int[] A;
        public object O; // swapped between unrelated types
        public Node N;
    }

    public static class Take
    {
        public static int Str(string s) { return s.Length & 1; }
        public static int Structs(Tiny[] a) { return a.Length & 1; }
        public static int Chain(Node n) { return n.Id; }
        public static int Held(Holder h) { return h.S == null ? 0 : 1; }
    }

    public static class Program
    {
        public static int Main(string[] args)
        {
            var big = new string('x', 50 * 1000 * 1000); // 100 MB of UTF-16
            int acc = 0;
            for (int i = 0; i < 50; i++) acc += Take.Str(big);
            Console.WriteLine("big string " + big.Length);

            Tiny[] huge;
            try { huge = new Tiny[0x7FFFFFC7]; } // the largest array of 1-byte elements
            catch (OutOfMemoryException) { huge = new Tiny[1 << 30]; }
            for (int i = 0; i < 50; i++) acc += Take.Structs(huge);
            Console.WriteLine("huge array");
            huge = null;

            Node head = null;
            for (int i = 0; i < 10000; i++) head = new Node { Id = i, Next = head };
            var ring = new Node { Id = -1 };
            ring.Next = ring;
            for (int i = 0; i < 50; i++) acc += Take.Chain(head) + Take.Chain(ring);
            Console.WriteLine("graphs");

            var h = new Holder();
            var stop = false;
            var longText = new string('y', 100000);
            var mutator = new Thread(() =>
            {
                var r = new Random(1);
                while (!Volatile.Read(ref stop))
                {
                    switch (r.Next(4))
                    {
                        case 0: h.S = null; h.A = null; h.O = 42; h.N = null; break;
                        case 1: h.S = longText; h.A = new int[3]; h.O = "text"; h.N = ring; break;
                        case 2: h.S = "s"; h.A = new int[100000]; h.O = new int[] { 1, 2 }; h.N = head; break;
                        default: h.O = h; h.A = new int[r.Next(1, 50)]; h.S = new string('z', r.Next(0, 500)); break;
                    }
                }
            });
            mutator.Start();
            for (int i = 0; i < 200000; i++) acc += Take.Held(h);
            Volatile.Write(ref stop, true);
            mutator.Join();
            Console.WriteLine("mutated " + (acc >= 0));
            return 0;
        }
    }
}
