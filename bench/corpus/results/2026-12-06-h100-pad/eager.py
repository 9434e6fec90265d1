import torch, json
torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
F = torch.nn.functional
d = "cuda"
def bench(fn, runs=100):
    for _ in range(10): fn()
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        fn()
    torch.cuda.current_stream().wait_stream(s)
    with torch.cuda.graph(g):
        fn()
    out = {}
    for name, f in (("eager", fn), ("graph", g.replay)):
        ts = []
        for _ in range(runs):
            a = torch.cuda.Event(enable_timing=True); b = torch.cuda.Event(enable_timing=True)
            a.record(); f(); b.record(); torch.cuda.synchronize(); ts.append(a.elapsed_time(b))
        ts.sort(); out[name] = ts[len(ts)//2]
    return out
r = {}
x0 = torch.randn(3,256,256,dtype=torch.float64,device=d); x1 = torch.randn(3,256,1024,dtype=torch.float64,device=d)
r["f64-012 bmm"] = bench(lambda: torch.bmm(x0, x1))
c0 = torch.randn(16,96,33,33,device=d); c1 = torch.randn(31,96,3,3,device=d); c2 = torch.randn(31,device=d)
r["conv13"] = bench(lambda: F.conv2d(c0, c1, c2, stride=2, padding=1))
e0 = torch.randn(16,3,32,7,device=d); e1 = torch.randn(31,3,5,5,device=d)
r["conv12"] = bench(lambda: F.conv2d(e0, e1, None, stride=1, padding=2))
a = torch.randn(1024,1024,device=d); b = torch.randn(1024,1024,device=d)
r["matmul f32 1024"] = bench(lambda: a @ b)
ah = a.half(); bh = b.half()
r["matmul f16 1024 (f16 out)"] = bench(lambda: ah @ bh)
print(json.dumps({k: {kk: round(vv, 5) for kk, vv in v.items()} for k, v in r.items()}, indent=1))
print(torch.cuda.get_device_name())
