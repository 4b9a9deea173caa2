// Torn.cs: references forged (with unsafe code) to point at memory that is
// readable but holds no object: garbage "method tables", pointers into the
// middle of real objects and strings, a type pointer to itself. Traced
// methods receive them as arguments and inside fields. The app clears each
// forged reference before it could meet a garbage collection (no allocation
// happens while one is live), so untraced it runs to the end.
using System;
using System.Runtime.InteropServices;

namespace Acme.Torn
{
    public class Holder
    {
        public string Name = "holder";
        public object Ref;
    }

    public static class Sink
    {
        public static int Take(object o) { return 1; }
        public static int TakeHolder(Holder h) { return 2; }
        public static int TakeArray(object[] a) { return 3; }
        public static object Give(Holder h) { return h.Ref; }
    }
}

public static unsafe class Program
{
    static void Forge(ref object slot, IntPtr address)
    {
        TypedReference tr = __makeref(slot);
        **(IntPtr**)(&tr) = address;
    }

    static int Probe(Acme.Torn.Holder h, object[] arr, IntPtr fake)
    {
        int sum = 0;
        object o = null;
        Forge(ref o, fake);
        sum += Acme.Torn.Sink.Take(o);
        o = null;
        Forge(ref h.Ref, fake);
        sum += Acme.Torn.Sink.TakeHolder(h);
        sum += Acme.Torn.Sink.Give(h) == null ? 0 : 1;
        h.Ref = null;
        Forge(ref arr[1], fake);
        sum += Acme.Torn.Sink.TakeArray(arr);
        arr[1] = null;
        return sum;
    }

    public static int Main(string[] args)
    {
        int rounds = args.Length > 0 ? int.Parse(args[0]) : 50;
        const int Size = 1 << 16;
        byte* mem = (byte*)Marshal.AllocHGlobal(Size);
        var rng = new Random(7);
        var h = new Acme.Torn.Holder();
        var arr = new object[] { "a", null, "c" };
        var s = "a string whose characters are read as a type pointer";
        // Warm up: every traced method compiled, every plan built, before
        // any forged reference exists.
        for (int i = 0; i < 3; i++)
            Probe(h, arr, IntPtr.Zero);
        long total = 0;
        for (int r = 0; r < rounds; r++)
        {
            for (int i = 0; i < Size; i++)
                mem[i] = (byte)rng.Next(256);
            IntPtr[] fakes = new IntPtr[6];
            // 1. random bytes, 2. a "method table" full of 0x41, 3. a type
            // pointer to itself, 4. a type pointer into the middle of the
            // block, 5. zeros after the type pointer.
            fakes[0] = (IntPtr)(mem + 64);
            *(long*)(mem + 128) = (long)(mem + 1024);
            for (int i = 1024; i < 2048; i++) mem[i] = 0x41;
            fakes[1] = (IntPtr)(mem + 128);
            *(long*)(mem + 256) = (long)(mem + 256);
            fakes[2] = (IntPtr)(mem + 256);
            *(long*)(mem + 512) = (long)(mem + 8 * (1 + rng.Next(Size / 8 - 2)));
            fakes[3] = (IntPtr)(mem + 512);
            *(long*)(mem + 4096) = (long)(mem + 8192);
            for (int i = 8192; i < 12288; i++) mem[i] = 0;
            fakes[4] = (IntPtr)(mem + 4096);
            fakes[5] = (IntPtr)(mem + 3);
            foreach (var f in fakes)
                total += Probe(h, arr, f);
            // 6. into the middle of a real string (its characters become the
            // type pointer); pinned so nothing moves.
            fixed (char* c = s)
                total += Probe(h, arr, (IntPtr)(c + 2));
        }
        Marshal.FreeHGlobal((IntPtr)mem);
        Console.WriteLine("done " + total);
        return 0;
    }
}
