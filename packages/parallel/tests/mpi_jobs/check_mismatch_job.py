"""Run by test_comm_check_mpi.py: rank 0 all-reduces while rank 1 all-gathers the same
bytes (or rank 0 sends float32[4] and rank 1 receives float64[2]; or rank 1 never comes; or
the ranks all-reduce different sizes into out=). Each rank reports the error it got (with
the check off: what it received), and the job exits non-zero when anything mismatched."""
import sys
import time

import numpy as np

import sporeling.parallel as sp

sp.init()
mode, pair = sys.argv[1], sys.argv[2]  # "on"/"off"; "collectives", "send", "missing", "sizes"
sp.set_auto_parallel_context(comm_timeout=float(sys.argv[3]), comm_check=mode)
rank = sp.get_rank()
comm = sp.current()
x = np.full(4, rank + 1.0, np.float32)
if pair == "sizes":                        # 16 bytes against 4 MiB: MPI would truncate or hang
    x = np.full(4 if rank == 0 else 1 << 20, rank + 1.0, np.float32)
out = np.zeros_like(x)
try:
    if pair == "missing":                # rank 1 never comes: rank 0's check times out
        if rank == 1:
            time.sleep(60)
        got = comm.all_reduce(x)
    elif pair == "send":                   # 16 bytes sent as float32[4], received as float64[2]
        got = comm.send(x, 1, tag=4) if rank == 0 else comm.recv((2,), np.float64, 0, tag=4)
        if rank == 0:
            sys.exit(0)
    elif pair == "sizes":
        got = comm.all_reduce(x, out=out)
    elif rank == 0:
        got = comm.all_reduce(x)
    else:
        got = comm.all_gather(x[:2])     # 2 float32 from each rank: 4 in all, as rank 0's
    print(f"rank {rank}: mismatched collective returned {got.tolist()}", flush=True)
except sp.CollectiveMismatchError as err:
    print(f"rank {rank}: {type(err).__name__}: {err}", flush=True)
    if pair == "send":
        sys.exit(3)
    if pair == "sizes":  # staged while the signatures travelled: never a peer's data
        print(f"rank {rank}: out holds {sorted(set(out.tolist()))}", flush=True)
    # the communicator still works: no rank started the mismatched collective
    total = comm.all_reduce(np.array([rank + 1.0]))
    print(f"rank {rank}: next all_reduce {total.tolist()}", flush=True)
    sp.release()
    sys.exit(3)
