"""The load generators: wrk Lua scripts (one fixed signed request, or a
body per call with a varying key), and running wrk and ApacheBench and
reading their figures."""

import signal
import subprocess


def lua_str(s):
    assert "]==]" not in s
    return "[==[" + s + "]==]"


def lua_headers(headers):
    return "{" + ", ".join(f'["{k}"] = {lua_str(v)}'
                           for k, v in headers.items()) + "}"


def wrk_fixed_script(path, headers, body):
    """Replays one signed request as it is (wrk builds it once)."""
    lines = ['wrk.method = "POST"', f"wrk.body = {lua_str(body)}"]
    lines += [f'wrk.headers["{k}"] = {lua_str(v)}' for k, v in headers.items()]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def wrk_varying_script(path, headers, fmt, start=0, stop_at=None,
                       random_below=None):
    """One request per call with a different key: `fmt` is the body with one
    %d (up to four, each the same) for a counter (or a random key below
    `random_below`). Signing covers
    the body, so these carry the template's signature: well-formed, valid only
    where signatures are not checked (pogi's default, and the peers'). With
    stop_at, prints a marker once that many keys were sent (the harness then
    stops wrk with SIGINT, which keeps wrk's elapsed time honest)."""
    fmt = fmt.replace("%", "%%").replace("%%d", "%d")
    src = [f"local hdrs = {lua_headers(headers)}",
           f"local fmt = {lua_str(fmt)}",
           f"local counter = {int(start)}",
           f"local stop_at = {int(stop_at) if stop_at else -1}",
           "local done = false",
           "request = function()"]
    if random_below:
        src.append(f"  local key = math.random(0, {int(random_below) - 1})")
    else:
        src += ["  local key = counter", "  counter = counter + 1",
                "  if counter == stop_at and not done then",
                "    done = true",
                '    io.stdout:write("POGI-BENCH-DONE\\n")',
                "    io.stdout:flush()",
                "    wrk.thread:stop()",
                "  end"]
    # Every %d of the body is the same key (Lua ignores the arguments left over).
    src += ['  return wrk.format("POST", "/", hdrs, string.format(fmt, key, key, key, key))',
            "end"]
    with open(path, "w") as f:
        f.write("\n".join(src) + "\n")


def parse_duration(s):
    for unit, mul in (("us", 1e-6), ("ms", 1e-3), ("s", 1.0), ("m", 60.0),
                      ("h", 3600.0)):
        if s.endswith(unit):
            try:
                return float(s[:-len(unit)]) * mul
            except ValueError:
                continue
    raise ValueError(s)


def run_wrk(url, script, seconds, conns, stop_marker=False):
    cmd = ["wrk", "-t1", f"-c{conns}", f"-d{max(1, int(round(seconds)))}s",
           "--timeout", "10s", "-s", script, url]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    out = []
    for line in proc.stdout:
        out.append(line)
        if stop_marker and "POGI-BENCH-DONE" in line:
            proc.send_signal(signal.SIGINT)
    proc.wait(timeout=seconds + 60)
    text = "".join(out)
    res = {"requests": 0, "seconds": 0.0, "non2xx": 0, "socket_errors": 0}
    for line in text.splitlines():
        line = line.strip()
        if " requests in " in line:
            parts = line.split()
            res["requests"] = int(parts[0])
            res["seconds"] = parse_duration(parts[3].rstrip(","))
        elif line.startswith("Non-2xx or 3xx responses:"):
            res["non2xx"] = int(line.split(":")[1])
        elif line.startswith("Socket errors:"):
            res["socket_errors"] = sum(
                int(p.split()[-1]) for p in line.split(":", 1)[1].split(","))
    if not res["requests"] or not res["seconds"]:
        raise RuntimeError(f"wrk gave no result:\n{text}")
    res["rate"] = res["requests"] / res["seconds"]
    res["failures"] = res["non2xx"] + res["socket_errors"]
    return res


def run_ab(url, body_file, headers, n, conns):
    cmd = ["ab", "-q", "-s", "10", "-n", str(n), "-c", str(conns),
           "-p", body_file,
           "-T", headers["Content-Type"]]
    for k, v in headers.items():
        if k != "Content-Type":
            cmd += ["-H", f"{k}: {v}"]
    cmd.append(url)
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=900)
    res = {"complete": 0, "failed": 0, "non2xx": 0}
    for line in r.stdout.splitlines():
        if line.startswith("Complete requests:"):
            res["complete"] = int(line.split()[-1])
        elif line.startswith("Failed requests:"):
            res["failed"] = int(line.split()[-1])
        elif line.startswith("Non-2xx responses:"):
            res["non2xx"] = int(line.split()[-1])
        elif line.startswith("Requests per second:"):
            res["rate"] = float(line.split()[3])
        elif line.startswith("Time per request:") and "across" not in line:
            res["mean_ms"] = float(line.split()[3])
        elif line.startswith("Time taken for tests:"):
            res["seconds"] = float(line.split()[4])
    if r.returncode != 0 or "rate" not in res:
        res["error"] = r.stdout.strip().splitlines()[-1:] or ["ab failed"]
        res["failed"] += n - res["complete"]
        res.setdefault("rate", 0.0)
        res.setdefault("mean_ms", float("nan"))
    res["failures"] = res["failed"] + res["non2xx"]
    return res


