"""Hosts CoreCLR inside CPython with pythonnet and calls PyLib.dll.

Usage: host.py RUNTIMECONFIG DOTNET_ROOT PYLIB_DLL N
pythonnet starts the runtime itself and never calls its Shutdown: whatever
the profiler has recorded must still reach the collector when the process
exits.
"""
import sys

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
print("calls", Ledger.Calls)
