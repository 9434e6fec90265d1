import torch
torch.backends.cuda.matmul.allow_tf32 = False
def t(fn):
    for _ in range(5): fn()
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph(); s = torch.cuda.Stream(); s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s): fn()
    torch.cuda.current_stream().wait_stream(s)
    with torch.cuda.graph(g): fn()
    ts = []
    for _ in range(50):
        a = torch.cuda.Event(enable_timing=True); b = torch.cuda.Event(enable_timing=True)
        a.record(); g.replay(); b.record(); torch.cuda.synchronize(); ts.append(a.elapsed_time(b))
    return sorted(ts)[25]
cases = {
  "softmax-f32-004": ((256, 500), torch.float32, "sm"),
  "softmax-f32-009": ((1024, 5120), torch.float32, "sm"),
  "softmax-f16-000": ((100, 3072), torch.float16, "sm"),
  "softmax-bf16-011": ((2048, 384), torch.bfloat16, "sm"),
  "logsoftmax-f32-005": ((256, 509), torch.float32, "lsm"),
  "softmax-f32-013": ((1000, 100), torch.float32, "sm"),
  "sm4096": ((4096, 4096), torch.float32, "sm"),
  "lsm": ((4096, 4096), torch.float32, "lsm"),
  "masked": ((64, 300), torch.float32, "masked"),
  "attn_bf16": ((64, 1024, 1024), torch.bfloat16, "attn"),
  "ln": ((4096, 1024), torch.float32, "ln"),
  "rms": ((4096, 1024), torch.float32, "rms"),
  "kb_softmax": ((4096, 393216), torch.float32, "sm"),
}
for name, (shape, dt, kind) in cases.items():
    x = torch.randn(shape, dtype=dt, device="cuda")
    if kind == "sm": fn = lambda: torch.softmax(x, -1)
    elif kind == "lsm": fn = lambda: torch.log_softmax(x, -1)
    elif kind == "attn": fn = lambda: torch.softmax(x * 0.125, -1)
    elif kind == "ln": fn = lambda: torch.nn.functional.layer_norm(x, (shape[-1],), eps=1e-5)
    elif kind == "rms":
        w = torch.randn(shape[-1], device="cuda")
        fn = lambda: x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-5) * w
    else:
        mask = torch.arange(shape[-1], device="cuda") < 5
        fn = lambda: torch.softmax(x.masked_fill(mask, float("-inf")), -1)
    try:
        print(name, "eager graph ms", round(t(fn), 4))
    except Exception as e:
        print(name, "eager error", e)
    del x
    torch.cuda.empty_cache()
