// Regression case: generator seed 104 (tests/csgen), minimised with
// csgen-campaign -minimize. A generic iterator Twice<T> enumerated with T a
// struct that holds a reference (HFlow15<StringBuilder>): its iterator class
// runs shared code (<Twice>c__Iterator0<HFlow15<__Canon>>). With profiler
// bdfe618^ (closure classes given link fields, whose offsets were read from
// the layout with __Canon as the type argument, where T is laid out before the
// Int64 fields rather than after them), the constructor's hook wrote the link
// into the iterator's copy of the struct: the checksum differed from the
// untraced run on both runtimes, capture on and off.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;
namespace Gen.S104 {
    public static class Chk {
        static ulong h = 14695981039346656037UL;
        public static long Count;
        public static void L(long v) { unchecked { h = (h ^ (ulong)v) * 1099511628211UL; h ^= h >> 29; } Count++; }
        public static void S(string s) {
        }
        public static void O(object o) {
        }
        public static string Hex() { return h.ToString("x16"); }
        public static int Exit() { return (int)(h % 4); }
    }
    public interface IMix { void Mix(); }
    public struct HFlow15<T> : IMix {
        public T Item; public int Tag; public string Label;
        public HFlow15(T item, int tag, string label) { Item = item; Tag = tag; Label = label; }
        public T Get() { return Item; }
        public int Touch(int k) { unchecked { Tag = Tag * 3 + k; return Tag; } }
        public void Mix() { Chk.O(Item); Chk.L(Tag); Chk.S(Label); }
    }
    public static class UIteratorsItemÑandú141 {
        static IEnumerable<T> Twice<T>(T x) { yield return x; yield return x; }
        public static void Run() {
            unchecked {
                foreach (HFlow15<StringBuilder> itBeta142 in Twice<HFlow15<StringBuilder>>(new HFlow15<StringBuilder>(new StringBuilder("naïve").Append((-1)).Append('0'), (1 * int.MinValue), "\\Ω"))) { itBeta142.Mix(); Chk.L(itBeta142.Touch(5)); Chk.O(itBeta142.Get()); }
            }
        }
    }
    public static class Program {
        public static int Main(string[] args) {
            UIteratorsItemÑandú141.Run();
            Console.WriteLine("checksum " + Chk.Hex() + " mixes " + Chk.Count.ToString(CultureInfo.InvariantCulture));
            return Chk.Exit();
        }
    }
}
