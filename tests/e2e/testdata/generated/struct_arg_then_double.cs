// Regression case found by the generator (tests/csgen, seed 2 of commit
// 8abbe3a; minimised by hand from its UManyargsUnit84): on .NET Core 3.1
// with value capture on, a method taking a struct passed in integer
// registers (decimal, Guid, DateTime, a struct of two longs or two ints)
// and a double or float saw the struct's first 8 bytes in place of the
// floating-point argument: TDec(-4.5m, 1.25) returned 1.0610302746E-314
// (0x80010000, the decimal's flags). Capture off, .NET 8 and untraced runs
// print the right values. The checks below print each value, so any
// difference shows in stdout.
using System;
using System.Globalization;

public struct P16 { public long A, B; }
public struct P8 { public int A, B; }
public struct PD { public double A, B; }

public static class Program {
    static double TDec(decimal d, double x) { return x; }
    static double TGuid(Guid g, double x) { return x; }
    static double TP16(P16 p, double x) { return x; }
    static double TP8(P8 p, double x) { return x; }
    static double TPD(PD p, double x) { return x; }
    static double TLong(long a, long b, double x) { return x; }
    static double TDecAfter(double x, decimal d) { return x; }
    static float TDecF(decimal d, float x) { return x; }
    static double TDt(DateTime d, TimeSpan t, double x) { return x; }
    static double TMany(string s, decimal m, double x, Guid g, float y, DateTime dt, double z) { return x + y * 2 + z * 4 + (double)m; }

    static void R(string n, double v) { Console.WriteLine(n + " " + v.ToString("R", CultureInfo.InvariantCulture)); }

    public static int Main() {
        R("decimal,double", TDec(-4.5m, 1.25));
        R("Guid,double", TGuid(new Guid("66f4d015-e989-78e5-d5f4-da5e0799d1f2"), 1.25));
        R("struct{long,long},double", TP16(new P16 { A = 7, B = 9 }, 1.25));
        R("struct{int,int},double", TP8(new P8 { A = 7, B = 9 }, 1.25));
        R("struct{double,double},double", TPD(new PD { A = 7, B = 9 }, 1.25));
        R("long,long,double", TLong(7, 9, 1.25));
        R("double,decimal", TDecAfter(1.25, -4.5m));
        R("decimal,float", TDecF(-4.5m, 1.25f));
        R("DateTime,TimeSpan,double", TDt(new DateTime(2000, 1, 1), TimeSpan.FromSeconds(3), 1.25));
        R("many", TMany("s", 0.5m, 1.25, Guid.Empty, 0.75f, new DateTime(2001, 2, 3), 2.5));
        return 0;
    }
}
