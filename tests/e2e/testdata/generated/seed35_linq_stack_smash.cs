// Regression case: generator seed 35 (tests/csgen at commit 9667ea9), minimised with
// csgen-campaign -minimize. A generic method E<T>(IEnumerable<T>) given LINQ's
// ordered sequences (OrderBy/ThenByDescending, query orderby + select).
// On .NET 8.0.4 with capture on (profiler 7ed478a) 8 runs in 8 abort with
// "*** stack smashing detected ***" (__stack_chk_fail in libcoreclr on a profiler
// thread); on .NET Core 3.1 capture on dies with SIGSEGV in
// ProfToEEInterfaceImpl::GetClassFromTokenAndTypeArgs ->
// ClassLoader::LoadGenericInstantiationThrowing, called from libclrotel on a
// profiler thread. Capture off and untraced runs exit 0.
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
namespace Gen.S35 {
    public static class Chk {
        static ulong h = 14695981039346656037UL;
        public static void O(object o) {
        }
        public static int Exit() { return (int)(h % 4); }
        public static void E<T>(IEnumerable<T> xs) {
            long n = 0;
            foreach (T x in xs) { O(x); n++; }
        }
    }
    
    
    
    
    public static class ULinqItem161 {
        public static void Run() {
            unchecked {
                var xs = new List<int> { -518, -545, -687, -688, 783, -747, 457, 759, -694 };
                Chk.E(from x in xs where x > -336 orderby x select x + 1);
                Chk.E(xs.OrderBy(x => x % 5).ThenByDescending(x => x));
                Chk.E(from x in xs where x > -336 orderby x select x + 1);
            }
        }
    }
    
    public static class Program {
        public static int Main(string[] args) {
            ULinqItem161.Run();
            return Chk.Exit();
        }
    }
}
