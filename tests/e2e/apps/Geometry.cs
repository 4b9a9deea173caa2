// Geometry.cs: a library assembly, so that the Values app passes a struct
// defined in another assembly (a TypeRef across modules), and Basic calls
// a method of another assembly in tail position.
namespace Geometry
{
    public struct Point
    {
        public int X;
        public int Y;
        public Point(int x, int y) { X = x; Y = y; }
    }

    public static class Calc
    {
        public static long Triple(long x) { return x * 3; }
    }
}
