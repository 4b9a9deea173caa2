"""Hosts CoreCLR inside CPython with pythonnet and calls PyLib.dll.

Usage: host.py RUNTIMECONFIG DOTNET_ROOT PYLIB_DLL N
pythonnet starts the runtime itself and never calls its Shutdown: whatever
the profiler has recorded must still reach the collector when the process
exits.
"""
import sys
import threading

from pythonnet import load

load("coreclr", runtime_config=sys.argv[1], dotnet_root=sys.argv[2])
import clr  # noqa: E402

clr.AddReference(sys.argv[3])
from System import Decimal  # noqa: E402
from Acme.Py import Ledger  # noqa: E402

n = int(sys.argv[4])
ledger = Ledger("cash")
total = None
for i in range(n):
    total = ledger.Post(Decimal(i) / Decimal(3), "entry %d" % i)
print("total", total)

# Three more Python threads, each a CLR thread of its own with its own
# capture buffer, still alive in the runtime's eyes when CPython exits.
totals = [None] * 3


def work(k):
    own = Ledger("thread %d" % k)
    for i in range(n // 3):
        totals[k] = own.Post(Decimal(i * (k + 1)), "t%d" % k)


threads = [threading.Thread(target=work, args=(k,)) for k in range(3)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print("thread totals", [str(t) for t in totals])
print("calls", Ledger.Calls)
