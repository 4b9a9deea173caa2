// A library the Resolve app finds only through its AssemblyResolve handler:
// it is compiled into a plugins/ directory the runtime does not probe.
namespace Acme.Plugin
{
    public class Base { public int Id = 3; }
}
