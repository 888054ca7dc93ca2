#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Data-parallel training of a small MLP on scikit-learn's digits, with PyTorch DDP.

Runs on CPUs (gloo backend) so it works with Debian's CPU-only python3-torch
and on a test cluster without real GPUs; on a GPU node it uses NCCL and CUDA.

Launch with torchrun (sets LOCAL_RANK/RANK/WORLD_SIZE):
    torchrun --standalone --nproc_per_node=2 --redirects 1 --tee 1 \
        pytorch_ddp_digits.py --epochs 20
or with srun, one task per process (SLURM_PROCID/SLURM_NTASKS), with
MASTER_ADDR/MASTER_PORT exported by the job script.

A run longer than the time limit (a spec's "segments"): Slurm signals the job
before its limit and the script passes SIGUSR1 (or SIGUSR2) on; this program
then finishes the epoch, saves a checkpoint and exits, and the next segment
resumes from it (epochs, optimizer, counters), so the epochs continue. The
checkpoint goes to --checkpoint, by default $SCALELAB_CHECKPOINT_DIR/digits.pt
when the script sets it; at the end it writes $SCALELAB_DONE_FILE, which tells
the later segments the work is done. --min-epoch-seconds stretches each epoch
(a longer training in a test).

Rank 0 prints lines ScaleLab's log extractor reads:
    epoch N loss L time T samples/s S
    test_accuracy A
    test_loss L
    train_time_s T
    samples_per_s S
"""
import argparse
import os
import signal
import socket
import sys
import time

# Set by SIGUSR1/SIGUSR2: the segment's time limit is near.
STOP_REQUESTED = False


def request_stop(signum, frame):
    global STOP_REQUESTED
    STOP_REQUESTED = True


def env_int(*names, default=None):
    for name in names:
        value = os.environ.get(name)
        if value not in (None, ""):
            return int(value)
    return default


def parse_args():
    p = argparse.ArgumentParser(description="PyTorch DDP on sklearn digits")
    p.add_argument("--epochs", type=int, default=20)
    p.add_argument("--batch-size", type=int, default=32,
                   help="per-process batch size (the global batch is this times the world size)")
    p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--hidden", type=int, default=128)
    p.add_argument("--seed", type=int, default=1234)
    default_ckpt = os.environ.get("SCALELAB_CHECKPOINT_DIR")
    p.add_argument("--checkpoint", default=os.path.join(default_ckpt, "digits.pt") if default_ckpt else None,
                   help="checkpoint file: saved when signalled, resumed from at start")
    p.add_argument("--min-epoch-seconds", type=float, default=0.0,
                   help="each epoch takes at least this long (a longer training in a test)")
    return p.parse_args()


def stretch(epoch_start, seconds):
    """Waits until the epoch has taken `seconds`, or a stop was requested."""
    while not STOP_REQUESTED and time.perf_counter() - epoch_start < seconds:
        time.sleep(0.05)


def save_checkpoint(path, net, optimizer, epoch, total_samples, train_time, torch):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    tmp = path + ".tmp"
    torch.save({"model": net.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch,
                "total_samples": total_samples, "train_time": train_time}, tmp)
    os.replace(tmp, path)


def main():
    signal.signal(signal.SIGUSR1, request_stop)
    signal.signal(signal.SIGUSR2, request_stop)
    args = parse_args()
    # On the loopback test cluster every process is on this machine; gloo would
    # otherwise pick the interface the host name resolves to. Only default to
    # "lo" when the rendezvous address is itself a loopback address.
    master = os.environ.get("MASTER_ADDR", "127.0.0.1")
    if "GLOO_SOCKET_IFNAME" not in os.environ:
        try:
            if socket.gethostbyname(master).startswith("127."):
                os.environ["GLOO_SOCKET_IFNAME"] = "lo"
        except OSError:
            pass

    # Imports after argument parsing so --help is quick.
    import torch
    import torch.distributed as dist
    import torch.nn as nn
    import torch.nn.functional as F
    from torch.nn.parallel import DistributedDataParallel as DDP
    from torch.utils.data import DataLoader, TensorDataset
    from torch.utils.data.distributed import DistributedSampler
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split

    rank = env_int("RANK", "SLURM_PROCID", default=0)
    world_size = env_int("WORLD_SIZE", "SLURM_NTASKS", default=1)
    local_rank = env_int("LOCAL_RANK", "SLURM_LOCALID", default=0)
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29500")

    use_cuda = torch.cuda.is_available()
    backend = "nccl" if use_cuda else "gloo"
    if world_size > 1:
        dist.init_process_group(backend=backend, rank=rank, world_size=world_size)
    device = torch.device(f"cuda:{local_rank}" if use_cuda else "cpu")
    if use_cuda:
        torch.cuda.set_device(device)

    torch.manual_seed(args.seed)
    print(f"rank {rank}/{world_size} on {socket.gethostname()} backend={backend} "
          f"device={device} node={os.environ.get('SLURMD_NODENAME', '-')}", flush=True)

    digits = load_digits()
    x = torch.tensor(digits.data / 16.0, dtype=torch.float32)
    y = torch.tensor(digits.target, dtype=torch.long)
    x_train, x_test, y_train, y_test = train_test_split(
        x, y, test_size=0.2, random_state=args.seed, stratify=y)
    train_set = TensorDataset(x_train, y_train)
    sampler = DistributedSampler(train_set, num_replicas=world_size, rank=rank,
                                 shuffle=True, seed=args.seed)
    loader = DataLoader(train_set, batch_size=args.batch_size, sampler=sampler)

    model = nn.Sequential(nn.Linear(64, args.hidden), nn.ReLU(),
                          nn.Linear(args.hidden, args.hidden), nn.ReLU(),
                          nn.Linear(args.hidden, 10)).to(device)
    if world_size > 1:
        model = DDP(model, device_ids=[local_rank] if use_cuda else None)
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)

    net = model.module if world_size > 1 else model
    first_epoch, total_samples, time_before = 1, 0, 0.0
    if args.checkpoint and os.path.exists(args.checkpoint):
        state = torch.load(args.checkpoint, map_location=device)
        net.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        first_epoch = state["epoch"] + 1
        total_samples, time_before = state["total_samples"], state["train_time"]
        if rank == 0:
            print(f"resumed from epoch {state['epoch']} ({args.checkpoint})", flush=True)

    train_start = time.perf_counter()
    stopped = False
    for epoch in range(first_epoch, args.epochs + 1):
        sampler.set_epoch(epoch)
        model.train()
        epoch_start = time.perf_counter()
        loss_sum = torch.zeros(2, device=device)  # summed loss, sample count
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            optimizer.zero_grad()
            loss = F.cross_entropy(model(xb), yb)
            loss.backward()
            optimizer.step()
            loss_sum += torch.tensor([loss.item() * len(xb), len(xb)], device=device)
        stretch(epoch_start, args.min_epoch_seconds)
        stop = torch.tensor([1.0 if STOP_REQUESTED else 0.0], device=device)
        if world_size > 1:
            dist.all_reduce(loss_sum)
            dist.all_reduce(stop, op=dist.ReduceOp.MAX)  # every rank stops after the same epoch
        epoch_time = time.perf_counter() - epoch_start
        samples = int(loss_sum[1].item())
        total_samples += samples
        if rank == 0:
            print(f"epoch {epoch} loss {loss_sum[0].item() / samples:.4f} "
                  f"time {epoch_time:.3f} samples/s {samples / epoch_time:.1f}", flush=True)
        if stop.item() > 0 and epoch < args.epochs and args.checkpoint:
            if rank == 0:
                save_checkpoint(args.checkpoint, net, optimizer, epoch, total_samples,
                                time_before + time.perf_counter() - train_start, torch)
                print(f"checkpoint saved after epoch {epoch}; the next segment resumes", flush=True)
            stopped = True
            break
    train_time = time_before + time.perf_counter() - train_start
    if stopped:
        if world_size > 1:
            dist.barrier()
            dist.destroy_process_group()
        return 0

    if rank == 0:
        net = model.module if world_size > 1 else model
        net.eval()
        with torch.no_grad():
            logits = net(x_test.to(device))
            test_loss = F.cross_entropy(logits, y_test.to(device)).item()
            accuracy = (logits.argmax(dim=1).cpu() == y_test).float().mean().item()
        print(f"test_accuracy {accuracy:.4f}", flush=True)
        print(f"test_loss {test_loss:.4f}", flush=True)
        print(f"train_time_s {train_time:.3f}", flush=True)
        print(f"samples_per_s {total_samples / train_time:.1f}", flush=True)
        print(f"world_size {world_size}", flush=True)
        if os.environ.get("SCALELAB_DONE_FILE"):
            with open(os.environ["SCALELAB_DONE_FILE"], "w") as done:
                done.write(f"epochs {args.epochs}\n")

    if world_size > 1:
        dist.barrier()
        dist.destroy_process_group()
    return 0


if __name__ == "__main__":
    sys.exit(main())
